// Experiment (node --import): admission control at the socket. At most K requests (env
// PALAVER_BENCH_ADMISSION, default 10: the PostgreSQL pool's size) are in the process at once;
// a connection whose answer is sent while K others are still running is paused (its next
// request waits, unread, in the kernel's socket buffer) and resumed, first paused first, when a
// slot frees. A resumed connection holds its slot for 20 ms or until its request comes.
//
// What it measures: on PostgreSQL a request waits for the database while the other 49
// connections' requests are read and started, so every request's objects live ~30 ms, through
// several young collections, and are copied into the old generation. With a small young
// generation (PALAVER_MEMORY=low) that doubled member reads' CPU. Not built into the server: a
// long request (a slow upload, a long poll) would hold a slot, so the server would need a
// cap on the wait and a list of requests that never count.
import http from 'node:http';

const K = Number(process.env.PALAVER_BENCH_ADMISSION ?? 10);
let running = 0;
const paused = [];
const held = new Map();

function admit() {
  while (running < K && paused.length) {
    const socket = paused.shift();
    if (socket.destroyed) continue;
    running += 1;
    held.set(
      socket,
      setTimeout(() => {
        held.delete(socket);
        running -= 1;
        admit();
      }, 20),
    );
    socket.resume();
  }
}

function finished(socket) {
  running -= 1;
  if (!socket.destroyed && (running >= K || paused.length)) {
    socket.pause();
    paused.push(socket);
  }
  admit();
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function admittingEmit(event, req, res) {
  if (event === 'request') {
    const socket = req.socket;
    const timer = held.get(socket);
    if (timer) {
      clearTimeout(timer);
      held.delete(socket);
    } else running += 1;
    // 'close', not 'finish': an answer the client hung up on frees its slot too.
    res.once('close', () => finished(socket));
  }
  return emit.apply(this, arguments);
};
