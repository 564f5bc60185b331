import type { DraftAction } from '../../state/drafts';

/** Spec §3 composer payloads: new topic, reply (and quote), edit. */
export type ComposerRequest =
  | { action: 'topics.post'; cid?: number; title?: string; body?: string; tags?: string[] }
  | {
      action: 'posts.reply';
      tid: number;
      toPid?: number;
      title?: string;
      body?: string;
      /** Quote: the post quoted and its author. */
      selectedPid?: number;
      username?: string;
    }
  | { action: 'posts.edit'; pid: number; tid?: number; /** Editing the topic's first post: the title is editable too. */ isMain?: boolean };

/** What the open composer holds. */
export interface ComposerState {
  /** Set (a new value) each time a quote goes into the text: the caret moves to the end of it. */
  quotedAt?: number;
  save_id: string;
  action: DraftAction;
  cid: number;
  tid: number;
  pid: number;
  toPid: number;
  title: string;
  body: string;
  tags: string[];
  /** Whether the title can be edited (new topics and edits of a main post). */
  titleEditable: boolean;
  minimized: boolean;
  busy: boolean;
}
