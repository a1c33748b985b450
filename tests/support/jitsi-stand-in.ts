import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for a Jitsi deployment, for end-to-end tests: serves a minimal
 * `external_api.js` on 127.0.0.1 that defines `JitsiMeetExternalAPI` like the real IFrame API
 * (constructor `(domain, options)`, `addListener`, `dispose`) and records every call's
 * options in `window.__jitsiCalls` (without the DOM node), so a test can read room and JWT.
 * The room it frames (`/room`) shows the room name and a hang-up button ("Auflegen"), which
 * makes the API report `videoConferenceLeft` and `readyToClose` to the app, as Jitsi does.
 */

const EXTERNAL_API = String.raw`(function () {
  var origin = new URL(document.currentScript.src).origin;
  window.__jitsiCalls = window.__jitsiCalls || [];
  function JitsiMeetExternalAPI(domain, options) {
    var self = this;
    var copy = {};
    Object.keys(options).forEach(function (k) { if (k !== 'parentNode') copy[k] = options[k]; });
    window.__jitsiCalls.push({ domain: domain, options: copy });
    this._listeners = {};
    var frame = document.createElement('iframe');
    frame.title = 'Jitsi stand-in';
    frame.src = origin + '/room?room=' + encodeURIComponent(options.roomName) +
      '&name=' + encodeURIComponent((options.userInfo || {}).displayName || '');
    frame.style.width = '100%';
    frame.style.height = '100%';
    frame.addEventListener('load', function () { self._emit('videoConferenceJoined', { roomName: options.roomName }); });
    this._onMessage = function (event) {
      if (event.origin !== origin || !event.data || event.data.stand_in !== 'hangup') return;
      self._emit('videoConferenceLeft', { roomName: options.roomName });
      self._emit('readyToClose', {});
    };
    window.addEventListener('message', this._onMessage);
    options.parentNode.appendChild(frame);
    this._frame = frame;
  }
  JitsiMeetExternalAPI.prototype.addListener = function (name, fn) {
    (this._listeners[name] = this._listeners[name] || []).push(fn);
  };
  JitsiMeetExternalAPI.prototype._emit = function (name, data) {
    (this._listeners[name] || []).forEach(function (fn) { fn(data); });
  };
  JitsiMeetExternalAPI.prototype.dispose = function () {
    window.removeEventListener('message', this._onMessage);
    if (this._frame) this._frame.remove();
    window.__jitsiDisposed = (window.__jitsiDisposed || 0) + 1;
  };
  window.JitsiMeetExternalAPI = JitsiMeetExternalAPI;
})();
`;

const ROOM_SCRIPT = `document.getElementById('hangup').addEventListener('click', function () {
  parent.postMessage({ stand_in: 'hangup' }, '*');
});`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function roomPage(room: string, name: string) {
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Raum</title></head>
<body><main><h1 id="room">${escapeHtml(room)}</h1><p id="name">${escapeHtml(name)}</p>
<button id="hangup" type="button">Auflegen</button></main><script src="/room.js"></script></body></html>`;
}

export interface JitsiStandIn {
  /** `127.0.0.1:port`, the JITSI_DOMAIN to configure. */
  domain: string;
  /** `http://127.0.0.1:port/external_api.js`, the JITSI_SCRIPT_URL to configure. */
  scriptUrl: string;
  /** Paths requested so far. */
  requests: string[];
  close(): Promise<void>;
}

export async function startJitsiStandIn(): Promise<JitsiStandIn> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push(url.pathname);
    if (url.pathname === '/external_api.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(EXTERNAL_API);
    } else if (url.pathname === '/room.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(ROOM_SCRIPT);
    } else if (url.pathname === '/room') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(roomPage(url.searchParams.get('room') ?? '', url.searchParams.get('name') ?? ''));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    domain: `127.0.0.1:${port}`,
    scriptUrl: `http://127.0.0.1:${port}/external_api.js`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
