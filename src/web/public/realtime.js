// One socket.io connection for the page, to the gateway on this origin. The browser client is the
// one the gateway itself serves (`{ws_path}/socket.io.esm.min.js`), so its version always matches.

const ACK_TIMEOUT_MS = 5000;
const REDIAL_MS = 2000;

/** Connects and reports its state ('connecting', 'live', 'reconnecting', 'refused') to onState. */
export async function connectRealtime(config, onState) {
  const { io } = await import(`${config.ws_path}/socket.io.esm.min.js`);
  const socket = io({ path: config.ws_path, transports: ['websocket'] });
  onState('connecting');
  socket.on('connect', () => onState('live'));
  socket.on('connect_error', (error) => onState('refused', error.data?.code ?? error.message));
  socket.on('gateway_error', (error) => onState('refused', error.code));
  socket.on('disconnect', (reason) => {
    onState('reconnecting', reason);
    // socket.io redials by itself except after the server closed the connection on purpose
    // (e.g. SLOW_CONSUMER): then it is our turn, after a pause.
    if (reason === 'io server disconnect') setTimeout(() => socket.connect(), REDIAL_MS);
  });
  return socket;
}

/** Sends subscribe / unsubscribe and resolves with the ack `{ok, error?}`. */
export async function request(socket, event, body) {
  try {
    return await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, body);
  } catch (error) {
    return { ok: false, error: { code: 'TIMEOUT', message: `No answer to ${event} within ${ACK_TIMEOUT_MS} ms` } };
  }
}
