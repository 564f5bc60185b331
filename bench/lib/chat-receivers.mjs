// The receiving side of bench/chat.mjs, in a process of its own: one WebSocket per member, each
// following the room. Driven over IPC by chat.mjs:
//   connect → { count }   start → {} (CPU clock starts)   finish { mids } → { seen: { mid: { got, first, last } }, cpuMs }
// (finish is asked once after the warm-up's messages, once after the measured ones). `first` and
// `last` are absolute (performance.timeOrigin + now), so that the sending process can subtract
// its own send times from them. finish answers once every socket has every one of those
// messages, or after 10 s.
//
// Each member speaks socket.io's wire protocol (engine.io 4) over a bare `ws` socket, as a
// load generator speaks HTTP without a browser: open, join the namespace, one call with an
// acknowledgement (modules.chats.enter), answer pings, and for each event:chats.receive note the
// message id and the time. socket.io-client's decoding of 200 copies of every message cost this
// process ~5 µs a delivery, most of a core at 600 messages/s on a 2-core machine that the server
// needs; what is measured is when the server's frame reaches the member's socket.
import WebSocket from 'ws';

const { base, roomId, sessions } = JSON.parse(process.argv[2]);
const sockets = [];
const seen = new Map();
const RECEIVE = '42["event:chats.receive",';

function connect(session) {
  return new Promise((resolve, reject) => {
    const url = `${base.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket&_csrf=${encodeURIComponent(session.csrf)}`;
    const ws = new WebSocket(url, { headers: { cookie: session.cookie }, perMessageDeflate: false });
    const timer = setTimeout(() => reject(new Error('socket: no answer in 20 s')), 20_000);
    const fail = (err) => {
      clearTimeout(timer);
      reject(err);
    };
    ws.on('error', fail);
    ws.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith(RECEIVE)) {
        // The message id: the payload is { roomId, fromUid, message: { …, mid, … } }.
        const mid = JSON.parse(text.slice(2))[1].message.mid;
        let e = seen.get(mid);
        const now = performance.timeOrigin + performance.now();
        if (!e) seen.set(mid, (e = { got: 0, first: now, last: 0 }));
        e.got += 1;
        e.last = now;
      } else if (text === '2') ws.send('3'); // ping → pong
      else if (text.startsWith('0')) ws.send('40'); // engine.io open → join the default namespace
      else if (text.startsWith('40')) ws.send(`421${JSON.stringify(['modules.chats.enter', roomId])}`);
      else if (text.startsWith('44')) fail(new Error(`socket refused: ${text}`));
      else if (text.startsWith('431')) {
        const [err] = JSON.parse(text.slice(3));
        if (err) fail(new Error(`modules.chats.enter: ${JSON.stringify(err)}`));
        else {
          clearTimeout(timer);
          resolve(ws);
        }
      }
    });
  });
}

let cpu0 = null;
const handlers = {
  async connect() {
    for (let i = 0; i < sessions.length; i += 50) sockets.push(...(await Promise.all(sessions.slice(i, i + 50).map(connect))));
    return { count: sockets.length };
  },
  async start() {
    cpu0 = process.cpuUsage();
    return {};
  },
  async finish({ mids }) {
    const deadline = performance.now() + 10_000;
    while (performance.now() < deadline && mids.some((mid) => (seen.get(mid)?.got ?? 0) < sockets.length)) await new Promise((r) => setTimeout(r, 50));
    const cpu = process.cpuUsage(cpu0 ?? undefined);
    return { seen: Object.fromEntries(mids.filter((mid) => seen.has(mid)).map((mid) => [mid, seen.get(mid)])), cpuMs: (cpu.user + cpu.system) / 1000 };
  },
};

process.on('message', async ({ type, ...data }) => {
  try {
    process.send({ type, ...(await handlers[type](data)) });
  } catch (err) {
    process.send({ type, error: String(err?.stack ?? err) });
  }
});
