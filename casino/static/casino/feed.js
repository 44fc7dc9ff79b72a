// WebSocket feed client of the consoles (issue #13), message format v1 (docs/realtime.md):
//   {"type": "snapshot", "v": 1, "versions": {stream: version}, "state": {...}}
//   {"type": "event", "v": 1, "stream", "version", "position", "event_type", "data", ...}
//   {"type": "error", "v": 1, "code", "detail"}
//
// The client remembers the last version per stream. When the socket drops it shows it
// plainly ("offline — reconnecting"), reconnects with backoff and resumes with the
// versions it saw, so it gets exactly what it missed. It never guesses: an event that is
// not the next version of its stream, a stream it cannot place, or a resume the server
// cannot serve makes it drop what it has and start again from a fresh snapshot.
//
// Resuming is in ONE place, resumeQuery(), so the v2 protocol (issue #11: a global
// position token) can be switched in without touching the pages.


export const FEED_STATES = ["connecting", "live", "offline", "resync", "denied"];

// At most this many streams go in a resume: the most recently updated ones. A tablet sees
// a new hand stream every hand, and naming all of them made the URL grow by about 50 bytes
// a hand; past 8 kB the server refuses the handshake (414 uri_too_long; it used to leave
// it unanswered), so a tablet that lost its connection late in the evening could never
// resume. Naming fewer is safe: the server forwards everything after the earliest named
// event, and what the client already holds comes back as repeats, which it drops
// (docs/realtime.md, v1).
export const RESUME_STREAMS = 20;

// The one place that turns what the client has seen into the resume parameter.
// v1: ?resume=stream:version,stream:version (``versions`` in the order streams were last
// updated, oldest first: Feed keeps it so).
export function resumeQuery(versions) {
  const parts = Object.entries(versions).slice(-RESUME_STREAMS).map(([stream, v]) => `${stream}:${v}`);
  return parts.length ? `resume=${encodeURIComponent(parts.join(","))}` : "";
}

function statusBadge(state, badge) {
  const el = document.getElementById(badge);
  if (!el) return;
  el.hidden = false;
  el.dataset.state = state;
  el.textContent = el.dataset[`label${state[0].toUpperCase()}${state.slice(1)}`] || state;
}

export class Feed {
  // path: "/ws/tables/1/"; token: a device token (or null: the session cookie);
  // onSnapshot(state, versions): the whole state, replace everything;
  // onEvent(message): one event, in order; isNewStream(stream): whether an event of a
  // stream never seen may start it (e.g. a new hand of this table) -- then its version
  // must be 1, or the client resyncs; onStatus(state): "connecting" | "live" | "offline" | ...
  // badge: the id of the element that shows this feed's state (the page's "feed-status" by
  // default; a second feed on the page shows its state in a badge of its own).
  constructor(path, { token = null, onSnapshot, onEvent, onStatus, onError, isNewStream, badge = "feed-status" } = {}) {
    this.badge = badge;
    this.path = path;
    this.token = token;
    this.onSnapshot = onSnapshot || (() => {});
    this.onEvent = onEvent || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onError = onError || (() => {});
    this.isNewStream = isNewStream || (() => false);
    this.versions = {};
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.state = "idle";
    this.lastMessageAt = 0;
    window.addEventListener("offline", () => this._drop());
    window.addEventListener("online", () => { if (this.state === "offline") this._reconnectSoon(0); });
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = [this.token ? `token=${encodeURIComponent(this.token)}` : "", resumeQuery(this.versions)]
      .filter(Boolean).join("&");
    return `${proto}//${location.host}${this.path}${query ? "?" + query : ""}`;
  }

  _status(state) {
    this.state = state;
    statusBadge(state, this.badge);
    this.onStatus(state);
  }

  start() {
    this.stopped = false;
    this._connect();
    return this;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    // a stopped feed has no state: its badge must not go on saying "live"
    const el = document.getElementById(this.badge);
    if (el) el.hidden = true;
  }

  // A page fetched a stream's state by REST (e.g. a new hand it learned of from the table
  // stream): events up to that version are already in it and are skipped as repeats.
  adopt(stream, version) {
    if (!(stream in this.versions) || this.versions[stream] < version) {
      delete this.versions[stream];
      this.versions[stream] = version;
    }
  }

  // Drop what we know and start again from a fresh snapshot (never guess).
  resync() {
    this.versions = {};
    this._status("resync");
    this._drop(0);
  }

  _drop(delay) {
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
    if (!this.stopped) {
      if (this.state !== "resync") this._status("offline");
      this._reconnectSoon(delay);
    }
  }

  _reconnectSoon(delay) {
    clearTimeout(this.timer);
    const wait = delay ?? Math.min(5000, 250 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.timer = setTimeout(() => this._connect(), wait);
  }

  _connect() {
    if (this.stopped) return;
    if (this.state !== "resync" && this.state !== "offline") this._status("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    const resuming = Object.keys(this.versions).length > 0;
    ws.onopen = () => {
      // A resume answers only missed events (maybe none): the feed is live once open.
      this.attempt = 0;
      if (resuming) this._status("live");
    };
    ws.onmessage = (m) => {
      if (this.ws !== ws) return;
      this.lastMessageAt = performance.now();
      let msg;
      try { msg = JSON.parse(m.data); } catch { this.resync(); return; }
      this._handle(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (e.code === 4403 || e.code === 4404) {
        this._status("denied");
        return; // a refusal, not a lost connection: do not hammer the server
      }
      if (!this.stopped) {
        this._status("offline");
        this._reconnectSoon();
      }
    };
  }

  _handle(msg) {
    if (msg.v !== 1) { this.resync(); return; }
    if (msg.type === "snapshot") {
      this.versions = { ...msg.versions };
      this._status("live");
      this.onSnapshot(msg.state, msg.versions);
    } else if (msg.type === "event") {
      const last = this.versions[msg.stream];
      const expected = last === undefined ? (this.isNewStream(msg.stream, msg) ? 1 : null) : last + 1;
      if (msg.version !== expected) {
        // a gap or a stream we cannot place: never guess
        if (last !== undefined && msg.version <= last) return; // a repeat
        this.resync();
        return;
      }
      delete this.versions[msg.stream]; // re-inserted last: the most recently updated stream
      this.versions[msg.stream] = msg.version;
      this.onEvent(msg);
    } else if (msg.type === "error") {
      this.onError(msg);
    } else {
      this.onEvent(msg); // other types (e.g. the tournament "clock") go to the page as they are
    }
  }
}

