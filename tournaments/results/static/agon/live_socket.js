// Following a tournament's live tables (tournaments/results/consumers.py): every saved game
// state arrives on a WebSocket as {game: {...}} (tournaments/results/selectors/table_state.py). When the
// socket cannot be held (no Redis, a proxy without WebSockets, a phone going to sleep)
// the page polls instead, and asks for the state once each time the socket opens again,
// so that nothing said while it was closed is missed. Plain WebSocket: the browser's own
// API does all we need, and a library would add nothing but bytes.

const RETRY_MS = [1000, 2000, 5000, 10000, 20000];
// The server's close codes (tournaments/results/consumers.py): the tournament is no longer
// to be seen here (unpublished, moved, deleted), or this address holds too many sockets.
const CLOSE_HIDDEN = 4403;
const CLOSE_TOO_MANY = 4429;

/**
 * follow({path, onGame, onCatchUp, pollMs}): onGame(state) for each message; onCatchUp()
 * when the page must read the state itself (the socket (re)opened, or every pollMs while
 * it is closed). Returns {close()}.
 */
export function follow({ path, onGame, onCatchUp, pollMs = 4000 }) {
  let socket = null;
  let attempt = 0;
  let poller = null;
  let closed = false;
  let retry = null;

  function startPolling() {
    if (poller === null) poller = setInterval(onCatchUp, pollMs);
  }

  function stopPolling() {
    clearInterval(poller);
    poller = null;
  }

  function open() {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    try {
      socket = new WebSocket(`${scheme}//${location.host}${path}`);
    } catch {
      startPolling();
      return;
    }
    socket.addEventListener("open", () => {
      attempt = 0;
      stopPolling();
      document.documentElement.dataset.live = "socket";
      onCatchUp();
    });
    socket.addEventListener("message", (event) => {
      try {
        const message = JSON.parse(event.data);
        if (message.game) onGame(message.game);
      } catch {
        // A message we cannot read is skipped; the next poll or message brings the state.
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === CLOSE_HIDDEN) {
        // Nothing more to follow: a reload shows the page as it now is (a 404).
        closed = true;
        stopPolling();
        document.documentElement.dataset.live = "hidden";
        return;
      }
      document.documentElement.dataset.live = "poll";
      startPolling();
      // Too many sockets from here: this page polls and does not ask again.
      if (event.code === CLOSE_TOO_MANY) return;
      if (!closed) retry = setTimeout(open, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
    });
  }

  open();
  return {
    close() {
      closed = true;
      clearTimeout(retry);
      stopPolling();
      socket?.close();
    },
  };
}
