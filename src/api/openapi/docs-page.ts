/**
 * /docs: a self-contained reference page (no CDN, no npm UI bundle). A few lines of inline script
 * fetch /v1/openapi.json and render each operation with its tier, parameters, body and responses.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>API v1 reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:1rem 2rem;color:#222}
h1{margin-bottom:0}.op{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.m{font-weight:700;display:inline-block;min-width:4.5em}.GET{color:#07a}.POST{color:#180}.DELETE{color:#c22}
.tier{float:right;font-size:.85em;background:#eee;border-radius:4px;padding:0 .4em}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:12px;max-height:22rem}
table{border-collapse:collapse}td,th{border-bottom:1px solid #eee;padding:2px 8px;text-align:left;vertical-align:top}
details summary{cursor:pointer}
</style></head>
<body><h1 id="title">API reference</h1><p id="desc"></p><p><a href="/v1/openapi.json">openapi.json</a></p><div id="ops">Loading…</div>
<script>
function esc(s){return String(s).replace(/[&<>"]/g,function(c){return {'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c];});}
function json(v){return '<pre>'+esc(JSON.stringify(v,null,2))+'</pre>';}
fetch('/v1/openapi.json').then(function(r){return r.json();}).then(function(doc){
  document.getElementById('title').textContent=doc.info.title+' '+doc.info.version;
  document.getElementById('desc').textContent=doc.info.description||'';
  var base=(doc.servers&&doc.servers[0]&&doc.servers[0].url)||'';var out='';
  Object.keys(doc.paths).forEach(function(path){var item=doc.paths[path];
    Object.keys(item).forEach(function(method){var op=item[method];var M=method.toUpperCase();
      out+='<div class="op"><span class="tier">'+esc(op['x-tier'])+(op['x-permission']?' · '+esc(op['x-permission']):'')+'</span>';
      out+='<p><span class="m '+M+'">'+M+'</span><code>'+esc(base+path)+'</code> — '+esc(op.summary)+'</p><p>'+esc(op.description||'')+'</p>';
      if(op.parameters&&op.parameters.length){out+='<table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>';
        op.parameters.forEach(function(p){out+='<tr><td><code>'+esc(p.name)+'</code></td><td>'+esc(p.in)+'</td><td>'+(p.required?'yes':'')+'</td><td><code>'+esc(JSON.stringify(p.schema))+'</code></td></tr>';});
        out+='</table>';}
      if(op.requestBody){out+='<details><summary>Request body</summary>'+json(op.requestBody.content['application/json'].schema)+'</details>';}
      Object.keys(op.responses).forEach(function(code){var r=op.responses[code];var c=r.content&&r.content['application/json'];
        out+='<details><summary>'+esc(code)+' '+esc(r.description)+'</summary>'+(c?json(c.schema):'')+'</details>';});
      out+='</div>';});});
  out+='<h2>Error envelope</h2>'+json(doc.components.schemas.ErrorEnvelope);
  document.getElementById('ops').innerHTML=out;
}).catch(function(e){document.getElementById('ops').textContent='Could not load openapi.json: '+e;});
</script></body></html>`;
