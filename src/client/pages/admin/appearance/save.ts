import type { ClientConfig } from '../../../../shared/types';
import { api } from '../../../app/api';

/** Saves several settings at once (all or none) through PUT /api/v3/admin/settings; a bad value is a 400 naming its key. */
export function saveSettings(config: ClientConfig, values: Record<string, unknown>): Promise<unknown> {
  return api(config, 'PUT', '/admin/settings', { values });
}
