import type { ProfileEditPage } from '../../../shared/profile.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { accountFields } from './account-fields.js';
import { customFieldDefs, customFieldViews, PROFILE_FIELD_MAX } from './profile.js';

/** /user/:userslug/edit: the profile form, for the member themself and admins (another member: 403). */
export const editPage = definePage<ProfileEditPage>({
  path: '/user/:userslug/edit',
  template: 'account/edit',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row || row.deleted === 1) throw notFound('error:no-user');
    const self = viewer.uid === row.uid;
    if (!self && !viewer.isAdmin) throw forbidden('error:no-privileges');
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/edit` };
    const s = await ctx.settings.get();
    const [values, groups] = await Promise.all([ctx.users.customValues(row.uid), ctx.groups.groupsOf(row.uid)]);
    return {
      // NodeBB's UserObjectFull (users/account-fields.ts), then the page's own fields.
      ...(await accountFields(ctx, viewer, row)),
      title: '[[pages:account/edit, ' + row.username + ']]',
      breadcrumbs: [{ text: '[[global:users]]', url: '/users' }, { text: row.username, url: `/user/${row.userslug}` }, { text: '[[user:edit]]' }],
      isSelf: self,
      aboutme: row.about,
      website: row.website,
      location: row.location,
      birthday: row.birthday,
      signature: row.signature,
      'cover:url': row.cover_url,
      'cover:position': row.cover_position || '50% 50%',
      uploadedpicture: row.picture.startsWith('/') ? row.picture : '',
      allowAboutMe: true,
      allowSignature: !s.disableSignatures,
      allowProfilePicture: true,
      allowCoverPicture: true,
      maximumAboutMeLength: s.maximumAboutMeLength,
      maximumSignatureLength: s.maximumSignatureLength,
      maximumProfileFieldLength: PROFILE_FIELD_MAX,
      maximumFileSize: s.maximumFileSize,
      customUserFields: customFieldViews(customFieldDefs(s.customUserFields), values, viewer, true, true),
      groups: groups.filter((g) => g !== 'registered-users').map((g) => ({ name: g, slug: g.toLowerCase().replace(/\s+/g, '-') })),
    };
  },
});
