import { sql } from 'kysely';
import type { AccountUser, ProfileLink } from '../../../shared/account.js';
import type { AppContext } from '../../context.js';

/** What the account fields read. */
export type AccountDeps = Pick<AppContext, 'db' | 'users' | 'groups' | 'privileges' | 'settings' | 'categories' | 'uploads' | 'config'>;
import { countPart, NO_NUM, NO_TEXT, runBatch, type BatchPart } from '../../db/prepared.js';
import { uploadCountPart } from '../uploads/service.js';
import { watchedCategoryCountPart } from '../categories/presenter.js';
import { followedTagCountPart } from '../tags/presenter.js';
import { flagsOfMemberCountPart, readerFlagOfMemberPart } from '../flags/presenter.js';
import { privateRoomPart } from '../chats/presenter.js';
import { latestIpsPart, latestNotePart, mutePart } from '../moderation/presenter.js';
import { SharedValues } from '../../cache/page-cache.js';
import type { Viewer } from '../privileges/service.js';
import { profilePart } from './member-parts.js';
import { ICON_COLOURS, presentUser, presentUserObj, userSettings } from './presenter.js';
import { ageOf } from './profile.js';
import { followPart, type UserRow } from './store.js';

/*
 * NodeBB's UserObjectFull (accountHelpers.getUserDataByUserSlug): the member an account page is
 * about, with what the reader may do, as every page under /user/:userslug carries it. The
 * member's groups and about text come from their shared profile part (member-parts.ts); the
 * counts, the reader's follow, block, chat room and flag, the mute and (for moderators) the
 * latest note and addresses are read in one batched statement: a fixed number of queries
 * whatever the member has. Not carried: `profileviews` (Palaver does not count profile views;
 * a documented deviation, docs/api.md).
 */

/** How many of the member's addresses the page lists (NodeBB's user.getIPs(uid, 4): five). */
const IPS = 5;

/** Whether `uid` blocks `blocked`. */
function blockPart(uid: number, blocked: number): BatchPart<boolean> {
  return {
    shape: 'users.blocks-one',
    build: (db, $) =>
      db
        .selectFrom('user_blocks')
        .select((eb) => [eb.ref('blocked_uid').as('id'), NO_NUM.as('num'), NO_TEXT.as('txt')])
        .where('uid', '=', $(0))
        .where('blocked_uid', '=', $(1)),
    values: uid > 0 && blocked > 0 ? [uid, blocked] : null,
    read: (rows) => rows.length > 0,
  };
}

/** The member's counts and the reader's relations to them, in one statement: each owner writes its own part. */
function parts(viewer: Viewer, row: UserRow, own: boolean, moderator: boolean) {
  const uid = row.uid;
  const pair = viewer.uid > 0 && viewer.uid !== uid ? `${Math.min(viewer.uid, uid)}:${Math.max(viewer.uid, uid)}` : null;
  return [
    countPart(
      'users.count-blocks',
      (db, $) =>
        db
          .selectFrom('user_blocks')
          .select([sql<number>`0`.as('id'), sql<number>`count(*)`.as('num'), NO_TEXT.as('txt')])
          .where('uid', '=', $(0)),
      own ? [uid] : null,
    ),
    uploadCountPart(own ? uid : null),
    watchedCategoryCountPart(own ? uid : null),
    followedTagCountPart(own ? uid : null),
    flagsOfMemberCountPart(uid),
    followPart(viewer.uid, uid),
    // For the chat check: does the member follow the reader, block them.
    followPart(uid, viewer.uid),
    blockPart(viewer.uid, uid),
    blockPart(uid, viewer.uid),
    privateRoomPart(pair),
    readerFlagOfMemberPart(uid, viewer.uid),
    mutePart(uid),
    latestNotePart(moderator ? uid : null),
    latestIpsPart(own ? uid : null, IPS),
  ] as const;
}

/** NodeBB's profile menu (getProfileMenu): the info, sessions and consent pages, each with who it shows to. */
function profileLinks(
  row: UserRow,
  states: Record<'self' | 'other' | 'moderator' | 'globalMod' | 'admin' | 'canViewInfo', boolean>,
  relativePath: string,
  gdpr: boolean,
): ProfileLink[] {
  const off = { self: false, other: false, moderator: false, globalMod: false, admin: false, canViewInfo: false };
  const links = [
    { id: 'info', route: 'info', name: '[[user:account-info]]', icon: 'fa-info', visibility: { ...off, admin: true, canViewInfo: true } },
    { id: 'sessions', route: 'sessions', name: '[[pages:account/sessions]]', icon: 'fa-group', visibility: { ...off, self: true } },
    ...(gdpr ? [{ id: 'consent', route: 'consent', name: '[[user:consent.title]]', icon: 'fa-thumbs-o-up', visibility: { ...off, self: true } }] : []),
  ];
  return links
    .map((l) => ({
      ...l,
      url: `${relativePath}/user/${row.userslug}/${l.route}`,
      public: (Object.keys(states) as (keyof typeof states)[]).some((k) => states[k] && l.visibility[k]),
    }))
    .filter((l) => l.public);
}

/** The fields of NodeBB's UserObjectFull for this reader of the member's account pages. */
export async function accountFields(ctx: AccountDeps, viewer: Viewer, row: UserRow): Promise<AccountUser> {
  const self = viewer.uid === row.uid;
  const [part, target, s, canChatPrivilege, canViewInfo, canBanPrivilege, canMutePrivilege, guardian] = await Promise.all([
    ctx.users.parts.profiles.get(String(row.uid), () => profilePart(ctx, row)),
    ctx.privileges.viewer(row.uid),
    ctx.settings.get(),
    viewer.uid > 0 ? ctx.privileges.can(viewer, 'chat') : false,
    viewer.uid > 0 ? ctx.privileges.can(viewer, 'view:users:info') : false,
    viewer.uid > 0 ? ctx.privileges.can(viewer, 'ban') : false,
    viewer.uid > 0 ? ctx.privileges.can(viewer, 'mute') : false,
    ctx.privileges.guardian(viewer),
  ]);
  const isTargetAdmin = target.isAdmin;
  // NodeBB's isModeratorOfAnyCategory: a moderator's grant somewhere (admins and global moderators by their own flags).
  const isModerator =
    viewer.uid > 0 && !viewer.isAdmin && !viewer.isGlobalMod && (await ctx.categories.readableCids(viewer)).some((cid) => guardian.isModerator(cid));
  const own = self || viewer.isAdmin;
  const batch = await runBatch(ctx.db, parts(viewer, row, own, viewer.isAdmin || viewer.isGlobalMod || isModerator));
  const [
    blocks,
    uploaded,
    categoriesWatched,
    tagsWatched,
    flags,
    isFollowing,
    followsReader,
    isBlocked,
    blocksReader,
    hasPrivateChat,
    flagId,
    mute,
    note,
    ips,
  ] = batch;
  const privilegedChat = viewer.isAdmin || viewer.isGlobalMod || (viewer.uid > 0 && (await ctx.privileges.can(viewer, 'chat:privileged')));
  // Readers alike get the same frozen object (the page's JSON then takes its text as made once).
  const sig = JSON.stringify([
    viewer.uid,
    viewer.isAdmin,
    viewer.isGlobalMod,
    isModerator,
    canViewInfo,
    canBanPrivilege,
    canMutePrivilege,
    canChatPrivilege,
    privilegedChat,
    target.isAdmin,
    target.isGlobalMod,
    ...batch,
  ]);
  return accountValues.of([row, part, s], sig, () => {
    const obj = presentUserObj(
      row,
      viewer,
      part.groups.withHidden.badges.map((b) => b.name),
    );
    const settings = userSettings(row);
    const groups = (own ? part.groups.withHidden : part.groups.shown).data;
    const titles = obj.groupTitleArray;
    const canChat =
      viewer.uid > 0 &&
      !self &&
      !s.disableChat &&
      canChatPrivilege &&
      row.deleted !== 1 &&
      !blocksReader &&
      (!settings.disableIncomingChats || privilegedChat || followsReader);
    const mutedUntil = mute ? mute.until : 0;
    const muted = !!mute && (mutedUntil === 0 || mutedUntil > Date.now());
    const u = presentUser(row);
    return {
      uid: row.uid,
      isLocal: true,
      username: u.username,
      userslug: u.userslug,
      email: obj.email,
      'email:confirmed': row.email_confirmed === 1,
      joindate: row.joindate,
      lastonline: row.lastonline,
      picture: u.picture,
      fullname: u.fullname,
      displayname: u.displayname,
      birthday: obj.birthday ?? '',
      aboutme: row.about,
      signature: obj.signature ?? '',
      uploadedpicture: u.picture,
      reputation: u.reputation,
      postcount: u.postcount,
      topiccount: row.topiccount,
      lastposttime: row.lastposttime,
      banned: u.banned,
      'banned:expire': obj['banned:expire'],
      status: u.status,
      flags,
      followerCount: row.follower_count,
      followingCount: row.following_count,
      'cover:url': obj['cover:url'],
      'cover:position': obj['cover:position'] ?? '',
      groupTitle: obj.groupTitle ?? '',
      groupTitleArray: titles,
      iconBackgrounds: ICON_COLOURS,
      muted,
      mutedUntil,
      mutedReason: muted ? (mute?.reason ?? '') : '',
      'icon:text': u['icon:text'],
      'icon:bgColor': u['icon:bgColor'],
      joindateISO: obj.joindateISO,
      lastonlineISO: obj.lastonlineISO,
      banned_until: obj.banned_until,
      banned_until_readable: obj.banned_until_readable,
      aboutmeParsed: part.aboutHtml,
      age: ageOf(row.birthday),
      // NodeBB's (by the member's showemail, whoever reads).
      emailHidden: !settings.showemail,
      emailClass: settings.showemail ? 'hide' : '',
      ...(viewer.isAdmin || self || (canViewInfo && !isTargetAdmin) ? { ips } : {}),
      ...(viewer.isAdmin || viewer.isGlobalMod || isModerator ? { moderationNote: note } : {}),
      counts: {
        posts: row.postcount,
        topics: row.topiccount,
        // Palaver has no shares (NodeBB's federated announces): none.
        shares: 0,
        ...(own ? { uploaded, categoriesWatched, tagsWatched, blocks } : {}),
        groups: groups.length,
        following: row.following_count,
        followers: row.follower_count,
      },
      isBlocked,
      blocksCount: blocks,
      yourid: viewer.uid,
      theirid: row.uid,
      isTargetAdmin,
      isAdmin: viewer.isAdmin,
      isGlobalModerator: viewer.isGlobalMod,
      isModerator,
      isAdminOrGlobalModerator: viewer.isAdmin || viewer.isGlobalMod,
      isAdminOrGlobalModeratorOrModerator: viewer.isAdmin || viewer.isGlobalMod || isModerator,
      isSelfOrAdminOrGlobalModerator: self || viewer.isAdmin || viewer.isGlobalMod,
      canEdit: self || viewer.isAdmin,
      canBan: canBanPrivilege && !isTargetAdmin && !self,
      canMute: canMutePrivilege && !isTargetAdmin && !self,
      canFlag: viewer.uid > 0 && (!(target.isAdmin || target.isGlobalMod) || viewer.isAdmin || viewer.isGlobalMod || self),
      flagId,
      canChangePassword: self || viewer.isAdmin,
      isSelf: self,
      isFollowing,
      // Palaver's follows need no approval: none is ever pending.
      isFollowPending: false,
      canChat,
      hasPrivateChat,
      showHidden: self || viewer.isAdmin,
      // Palaver has no reputation thresholds for pictures: anyone who may edit may set them.
      allowProfilePicture: true,
      allowCoverPicture: true,
      allowProfileImageUploads: 1,
      ...ctx.uploads.pictureRules(s),
      groups,
      selectedGroup: groups.filter((g) => titles.includes(g.name)).sort((a, b) => titles.indexOf(a.name) - titles.indexOf(b.name)),
      disableSignatures: s.disableSignatures,
      // Palaver has no switch for reputation or downvotes: both are always on.
      'reputation:disabled': false,
      'downvote:disabled': false,
      profile_links: profileLinks(
        row,
        { self, other: !self, moderator: isModerator, globalMod: viewer.isGlobalMod, admin: viewer.isAdmin, canViewInfo },
        ctx.config.relativePath,
        s.gdpr_enabled,
      ),
      // Palaver lets every member change their name and address (within its own rules).
      'username:disableEdit': false,
      'email:disableEdit': false,
    };
  });
}

/** The fields by the member's row, profile part and the settings, then what the reader is to them. */
const accountValues = new SharedValues<AccountUser>(3);
