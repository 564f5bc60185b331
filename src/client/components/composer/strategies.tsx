import type { UserSummary } from '../../../shared/types';
import { MENTION_ALERT_MS } from '../../../shared/constants';
import { searchEmoji } from '../../../shared/emoji';
import type { Runtime } from '../../app/runtime';
import { errorText, translate } from '../../i18n';
import type { AutocompleteStrategy } from '../autocomplete';
import { Avatar } from '../Avatar';
import { loadEmojiTable } from './emoji-table';
import { socketCall } from './socket-call';


type Mention = { kind: 'user'; user: UserSummary } | { kind: 'group'; name: string; slug: string };

const slugOf = (name: string) => name.toLowerCase().replace(/\s+/g, '-');

/**
 * `@` autocomplete: the topic's posters first, then members found by name (the searcher is
 * excluded by the server), then groups. A failed member search shows a danger alert for 5 s
 * and an empty list (spec §8); failed topic-user and group lists show an error alert.
 */
export function mentionStrategy(rt: Runtime, tid: number): AutocompleteStrategy<Mention> {
  const t = (key: string) => translate(rt.i18n, key, []);
  let topicUsers: Promise<UserSummary[]> | null = null;
  let groups: Promise<string[]> | null = null;
  const errorAlert = (err: unknown) => {
    rt.alert({ type: 'error', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    return [];
  };
  return {
    id: 'mentions',
    match: /(?:^|[\s([{])@([\p{L}\p{N}_.-]{0,40})$/u,
    async search(term) {
      const q = term.toLowerCase();
      topicUsers ??= tid ? socketCall<UserSummary[]>(rt, 'plugins.mentions.getTopicUsers', { tid }).catch(errorAlert) : Promise.resolve([]);
      groups ??= socketCall<string[]>(rt, 'plugins.mentions.listGroups').catch(errorAlert);
      const found = q
        ? socketCall<UserSummary[]>(rt, 'plugins.mentions.userSearch', { query: q, composerObj: { tid } }).catch((err: unknown) => {
            rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err), timeout: MENTION_ALERT_MS });
            return [] as UserSummary[];
          })
        : Promise.resolve([]);
      const [posters, members, groupNames] = await Promise.all([topicUsers, found, groups]);
      const matches = (u: UserSummary) => u.username.toLowerCase().startsWith(q) || u.userslug.startsWith(q);
      const seen = new Set<number>();
      const out: Mention[] = [];
      for (const user of [...posters.filter(matches), ...members]) {
        if (seen.has(user.uid)) continue;
        seen.add(user.uid);
        out.push({ kind: 'user', user });
      }
      for (const name of groupNames) if (slugOf(name).startsWith(q) || name.toLowerCase().startsWith(q)) out.push({ kind: 'group', name, slug: slugOf(name) });
      return out.slice(0, 10);
    },
    key: (m) => (m.kind === 'user' ? `u${m.user.uid}` : `g${m.slug}`),
    render: (m) =>
      m.kind === 'user' ? (
        <>
          <Avatar user={m.user} size="xs" />
          <span>{m.user.username}</span>
        </>
      ) : (
        <>
          <span className="badge text-bg-secondary">{t('modules:composer.group')}</span>
          <span>{m.name}</span>
        </>
      ),
    replace: (m) => `@${m.kind === 'user' ? m.user.userslug : m.slug} `,
  };
}

type EmojiItem = { u: string; code: string };

/** `:` autocomplete from the emoji index (by shortcode, name and keyword), loaded on first use. */
export function emojiStrategy(rt: Runtime): AutocompleteStrategy<EmojiItem> {
  return {
    id: 'emoji',
    match: /(?:^|[\s([{]):([a-z0-9_+-]{2,30})$/i,
    async search(term) {
      const entries = await loadEmojiTable(rt.config.relative_path);
      return searchEmoji(entries, term, 8).map((e) => ({ u: e.u, code: e.s[0]! }));
    },
    key: (e) => e.code,
    render: (e) => (
      <>
        <span className="fs-5 lh-1" aria-hidden="true">
          {e.u}
        </span>
        <span>:{e.code}:</span>
      </>
    ),
    replace: (e) => `:${e.code}: `,
  };
}
