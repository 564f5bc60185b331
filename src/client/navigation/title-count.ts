import { notificationsOf, titleWithCount } from '../state/notifications';
import { chatsOf } from '../components/chats/store';

type Doc = { title: string };

/** The title's count: unread notifications plus chat rooms with unread messages. */
const unreadTotal = (rt: object): number => notificationsOf(rt).get().unread + chatsOf(rt).get().unread;

// The page's own title per document, without the count: a title that itself starts with
// "(2) " must not lose it when the count drops to zero.
const bareTitles = new WeakMap<Doc, string>();

/** Sets a page's title, with the unread notifications count in front (NodeBB: "(3) Title"). */
export function setDocumentTitle(rt: object, title: string, doc: Doc = document): void {
  bareTitles.set(doc, title);
  doc.title = titleWithCount(title, unreadTotal(rt));
}

/** Keeps the count prefix of the document title in step with the unread count. */
export function watchTitleCount(rt: object, doc: Doc = document): () => void {
  const store = notificationsOf(rt);
  if (!bareTitles.has(doc)) bareTitles.set(doc, doc.title);
  const apply = () => {
    const next = titleWithCount(bareTitles.get(doc) ?? '', unreadTotal(rt));
    if (next !== doc.title) doc.title = next;
  };
  apply();
  const stopChats = chatsOf(rt).subscribe(apply);
  const stopNotifications = store.subscribe(apply);
  return () => {
    stopChats();
    stopNotifications();
  };
}
