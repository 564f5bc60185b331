import type { PageBase } from '../types.js';

/** How a setting is edited on its admin page. */
export type SettingControl = 'text' | 'textarea' | 'number' | 'toggle' | 'select' | 'password' | 'link';

/** One setting on an admin settings page: its key, control and limits (from the settings schema). */
export interface SettingField {
  key: string;
  control: SettingControl;
  min?: number;
  max?: number;
  maxLength?: number;
  /** A select's values (labels: admin-settings:option.<value>). */
  options?: string[];
  /** A 'link' field: the admin page that edits this setting. */
  href?: string;
}

export interface SettingSection {
  id: string;
  fields: SettingField[];
}

/** GET /api/admin/settings/{page}: the page's sections, its settings' values (secrets: '' plus `secretsSet`). */
export interface AdminSettingsPage extends PageBase {
  settingsPage: string;
  sections: SettingSection[];
  values: Record<string, string | number | boolean>;
  /** Secret settings (the SMTP password): whether one is stored; the value itself is never sent. */
  secretsSet: Record<string, boolean>;
  /** The API page: master tokens (the token itself is shown only when created). */
  tokens?: { id: string; description: string; created: number; lastSeen: number }[];
  /** The email page: whether mail can be sent and what waits in the outbox. */
  mail?: import('./dashboard.js').MailStatus;
}

/** Page data of /admin/settings/navigation (template `admin/settings/navigation`). */
export interface AdminNavigationPage extends PageBase {
  /** The entries as the forum shows them now (the built-in list while the setting is empty). */
  navigation: import('../navigation.js').NavEntry[];
  /** The built-in list. */
  defaults: import('../navigation.js').NavEntry[];
  /** True when the admin has saved a list of their own. */
  custom: boolean;
}
