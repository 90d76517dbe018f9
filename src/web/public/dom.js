// A tiny element builder: text is always set as text, never parsed as HTML.

/** h('td', {class: 'num'}, '0.45') */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A local date and time for an ISO timestamp; the ISO text stays in the element's datetime. */
export function time(iso, withDate = false) {
  if (!iso) return '–';
  const at = new Date(iso);
  const text = withDate ? at.toLocaleString() : at.toLocaleTimeString();
  return h('time', { datetime: iso, title: iso }, text);
}
