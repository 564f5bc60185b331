import { mapMessage, mapRoom, Notes, type MessageImport, type RoomImport } from './map.js';
import { replaceChildren, takenDmKeys, upsert } from './store.js';
import { ids, known, num, write, type Phase } from './phase.js';

const chats: Phase = {
  name: 'chats',
  set: 'chat:rooms',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const s = await deps.settings.get();
    const roomIds = ids(page);
    const hashes = await src.hashes(roomIds.map((r) => `chat:room:${r}`));
    const members = await src.zsets(roomIds.map((r) => `chat:room:${r}:uids`));
    const owners = await src.zsets(roomIds.map((r) => `chat:room:${r}:owners`));
    const uidOk = await known(
      deps,
      src,
      dryRun,
      'users',
      [...members.flat(), ...owners.flat()].map(([u]) => Number(u)),
    );
    const rooms: RoomImport[] = [];
    const memberRows: { room_id: number; uid: number; is_owner: number; joined: number }[] = [];
    for (let i = 0; i < roomIds.length; i++) {
      const uids = members[i]!.map(([u]) => Number(u)).filter(uidOk);
      const room = mapRoom(roomIds[i]!, hashes[i]!, notes, uids, owners[i]!.map(([u]) => Number(u)).filter(uidOk));
      if (!room) continue;
      rooms.push(room);
      const own = new Set(owners[i]!.map(([u]) => u));
      for (const [u, joined] of members[i]!)
        if (uidOk(Number(u))) memberRows.push({ room_id: room.room_id, uid: Number(u), is_owner: own.has(u) ? 1 : 0, joined: Math.trunc(joined) });
    }
    // One direct conversation per pair: a second one of the same pair comes in as a plain room.
    const taken = dryRun
      ? new Set<string>()
      : await takenDmKeys(
          deps.db,
          rooms.flatMap((r) => (r.dm_key ? [r.dm_key] : [])),
          rooms.map((r) => r.room_id),
        );
    for (const r of rooms) {
      if (!r.dm_key) continue;
      if (taken.has(r.dm_key)) r.dm_key = null;
      else taken.add(r.dm_key);
    }
    let messages = 0;
    await write(deps, dryRun, (w) => upsert(w, 'chat_rooms', rooms, ['room_id']));
    // Read states: a room in uid:<uid>:chat:rooms:unread was read up to the time in
    // uid:<uid>:chat:rooms:read; any other room of the member was read to its end.
    const readers = [...new Set(memberRows.map((m) => m.uid))];
    const readHashes = await src.hashes(readers.map((u) => `uid:${u}:chat:rooms:read`));
    const unreadSets = await src.inZsetMany(
      readers.map((u) => `uid:${u}:chat:rooms:unread`),
      rooms.map((r) => String(r.room_id)),
    );
    const readAt = new Map<string, number>();
    readers.forEach((u, i) => {
      for (const r of rooms)
        readAt.set(`${r.room_id}:${u}`, unreadSets[i]!.has(String(r.room_id)) ? Number(readHashes[i]?.[String(r.room_id)]) || 0 : Infinity);
    });
    const lastRead = new Map<string, number>();
    for (const room of rooms) {
      let cursor = '';
      do {
        const p = await src.zpage(`chat:room:${room.room_id}:mids`, cursor, 500);
        const mids = ids(p.items);
        const mh = await src.hashes(mids.map((m) => `message:${m}`));
        const authorOk = await known(
          deps,
          src,
          dryRun,
          'users',
          mh.map((h) => num(h?.fromuid)),
        );
        const rows: (MessageImport & { idx: number; content_html: string })[] = [];
        for (let i = 0; i < mids.length; i++) {
          const m = mapMessage(mids[i]!, room.room_id, mh[i]!, notes, { uid: authorOk }, Math.max(s.maximumChatMessageLength ?? 1000, 65_000));
          if (!m) continue;
          const html = m.system ? '' : (await deps.hooks.runFilter('filter:parse.post', { content: m.content, html: '', kind: 'post', uid: m.uid })).html;
          // Positions are given at the end (store.rebuild): -mid meanwhile, unique.
          rows.push({ ...m, idx: -m.mid, content_html: html });
          for (const mem of memberRows) {
            if (mem.room_id !== room.room_id) continue;
            const key = `${room.room_id}:${mem.uid}`;
            if (m.created <= (readAt.get(key) ?? Infinity) && m.mid > (lastRead.get(key) ?? 0)) lastRead.set(key, m.mid);
          }
        }
        messages += rows.length;
        await write(deps, dryRun, (w) => upsert(w, 'chat_messages', rows, ['mid']));
        cursor = p.next;
      } while (cursor);
    }
    // Each member's notification setting of the room (chat:room:<id>:notification:settings: uid → 1 none, 2 mentions, 3 all; Palaver's 0, 1, 2; none set: the room's notificationSetting, else Palaver's default, all).
    const notify = await src.hashes(rooms.map((r) => `chat:room:${r.room_id}:notification:settings`));
    const notifyOf = new Map(rooms.map((r, i) => [r.room_id, notify[i]]));
    const withReads = memberRows.map((m) => {
      const v = num(notifyOf.get(m.room_id)?.[String(m.uid)]) || num(hashes[roomIds.indexOf(m.room_id)]?.notificationSetting);
      return { ...m, last_read_mid: lastRead.get(`${m.room_id}:${m.uid}`) ?? 0, notify: v >= 1 && v <= 3 ? v - 1 : 2 };
    });
    await write(deps, dryRun, (w) =>
      replaceChildren(
        w,
        'chat_room_members',
        'room_id',
        rooms.map((r) => r.room_id),
        withReads,
        ['room_id', 'uid'],
      ),
    );
    return { count: rooms.length + messages, notes: notes.list };
  },
};

/** NodeBB's flag targets and Palaver's names for them. */
const FLAG_TYPES: Record<string, string> = { post: 'post', user: 'user', message: 'chat' };

const flagsPhase: Phase = {
  name: 'flags',
  set: 'flags:datetime',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const fids = ids(page);
    const hashes = await src.hashes(fids.map((f) => `flag:${f}`));
    const reports = await src.zsets(fids.map((f) => `flag:${f}:reports`));
    const flagNotes = await src.zsets(fids.map((f) => `flag:${f}:notes`));
    const history = await src.zsets(fids.map((f) => `flag:${f}:history`));
    const rows: {
      flag_id: number;
      type: string;
      target_id: number;
      target_uid: number;
      state: string;
      assignee: number;
      created: number;
      last_report: number;
    }[] = [];
    const reportRows: { flag_id: number; reporter_uid: number; reason: string; created: number }[] = [];
    const noteRows: { flag_id: number; uid: number; content: string; datetime: number }[] = [];
    const historyRows: { flag_id: number; uid: number; fields: string; datetime: number }[] = [];
    const json = (v: string): unknown => {
      try {
        return JSON.parse(v);
      } catch {
        return null;
      }
    };
    fids.forEach((fid, i) => {
      const h = hashes[i];
      if (!h) return void notes.skip('flag', fid, 'flags:datetime lists it but flag:<id> is missing');
      const type = FLAG_TYPES[h.type ?? ''];
      if (!type) return void notes.skip('flag', fid, `unknown target type "${h.type}"`);
      const created = Number(h.datetime) || Date.now();
      const reps = reports[i]!;
      rows.push({
        flag_id: fid,
        type,
        target_id: Number(h.targetId) || 0,
        target_uid: Number(h.targetUid) || 0,
        state: ['open', 'wip', 'resolved', 'rejected'].includes(h.state ?? '') ? h.state! : 'open',
        assignee: Number(h.assignee) || 0,
        created,
        last_report: Math.trunc(reps[reps.length - 1]?.[1] ?? created),
      });
      // Reports are "<uid>;<reason>".
      for (const [m, t] of reps) {
        const at = m.indexOf(';');
        reportRows.push({ flag_id: fid, reporter_uid: Number(m.slice(0, at)) || 0, reason: m.slice(at + 1).slice(0, 1000), created: Math.trunc(t) });
      }
      for (const [m, t] of flagNotes[i]!) {
        const n = json(m);
        if (Array.isArray(n)) noteRows.push({ flag_id: fid, uid: Number(n[0]) || 0, content: String(n[1] ?? '').slice(0, 5000), datetime: Math.trunc(t) });
      }
      for (const [m, t] of history[i]!) {
        const e = json(m);
        if (Array.isArray(e)) historyRows.push({ flag_id: fid, uid: Number(e[0]) || 0, fields: JSON.stringify(e[1] ?? {}), datetime: Math.trunc(t) });
      }
    });
    const got = rows.map((r) => r.flag_id);
    const uidOk = await known(deps, src, dryRun, 'users', [...reportRows.map((r) => r.reporter_uid), ...noteRows.map((n) => n.uid)]);
    const goneReporters = reportRows.filter((r) => !uidOk(r.reporter_uid));
    for (const r of goneReporters) notes.alter('flag', r.flag_id, `a report by missing member ${r.reporter_uid} left out`);
    await write(deps, dryRun, async (w) => {
      await upsert(w, 'flags', rows, ['flag_id']);
      await replaceChildren(
        w,
        'flag_reports',
        'flag_id',
        got,
        reportRows.filter((r) => uidOk(r.reporter_uid)),
        ['flag_id', 'reporter_uid'],
      );
      await replaceChildren(w, 'flag_notes', 'flag_id', got, [], ['id']);
      await replaceChildren(w, 'flag_history', 'flag_id', got, [], ['id']);
      const keptNotes = noteRows.filter((n) => uidOk(n.uid));
      if (keptNotes.length) await w.tx.insertInto('flag_notes').values(keptNotes).execute();
      if (historyRows.length) await w.tx.insertInto('flag_history').values(historyRows).execute();
    });
    return { count: rows.length, notes: notes.list };
  },
};

/** Chat rooms with their messages, and flags. */
export const CHAT_FLAG_PHASES: Phase[] = [chats, flagsPhase];
