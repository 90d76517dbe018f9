/** The collection a driver command addresses, from its body ('' for commands of no collection). */
export function commandCollection(commandName: string, body: Record<string, unknown>): string {
  // A getMore names its cursor first and its collection in `collection`.
  const named = commandName === 'getMore' ? body.collection : body[commandName];
  return typeof named === 'string' ? named : '';
}
