import type { AuthPage, PageBase, UserSummary } from '../types.js';

/** The first-run setup page (issue 16 §1): the forum's title and the account rules of spec §5. */
export interface SetupPage extends Omit<AuthPage, 'allowRegistration'> {
  siteTitle: string;
  /** The language the forum will speak once set up (that of the setup page, see setupLanguage), in its own name. */
  languageName: string;
}

/** A group of the admins & mods page (NodeBB's GroupFullObject, the fields this page reads). */
export interface AdminsModsGroup {
  name: string;
  slug: string;
  memberCount: number;
  members: UserSummary[];
}

/** One category and its own moderators (NodeBB's categoryMods[]). */
export interface CategoryModerators {
  cid: number;
  name: string;
  slug: string;
  icon: string;
  bgColor: string;
  color: string;
  parentCid: number;
  moderators: UserSummary[];
  subCategoryCount: number;
}

/** /api/admin/manage/admins-mods: administrators, global moderators and each category's moderators. */
export interface AdminsModsPage extends PageBase {
  admins: AdminsModsGroup;
  globalMods: AdminsModsGroup;
  categoryMods: CategoryModerators[];
}
