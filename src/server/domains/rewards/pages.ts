import type { AdminRewardsPage } from '../../../shared/schemas/admin-privileges.js';
import { definePage } from '../../http/pages.js';
import { ADMINISTRATORS, GUESTS, REGISTERED } from '../groups/service.js';
import { REWARD_CONDITIONS, rewardsOf } from './service.js';

/** /admin/extend/rewards: the rules, the conditions and the groups a rule may give. */
const rewardsPage = definePage<AdminRewardsPage>({
  path: '/admin/extend/rewards',
  template: 'admin/extend/rewards',
  access: 'admin',
  async load({ ctx, viewer }) {
    const [active, groups] = await Promise.all([rewardsOf(ctx).list(viewer), ctx.groups.adminList(viewer)]);
    return {
      title: '[[admin-privileges:rewards.title]]',
      breadcrumbs: [{ text: '[[admin-privileges:rewards.title]]' }],
      active,
      conditions: REWARD_CONDITIONS.map((condition) => ({ condition, name: `[[admin-privileges:rewards.condition.${condition}]]` })),
      groups: groups.map((g) => g.name).filter((n) => ![ADMINISTRATORS, GUESTS, REGISTERED].includes(n)),
    };
  },
});

export const rewardPages = [rewardsPage];
