import { CHAT_FLAG_PHASES } from './chat-flag-phases.js';
import { CONTENT_PHASES } from './content-phases.js';
import { FORUM_PHASE } from './forum-phase.js';
import { PEOPLE_PHASES } from './people-phases.js';
import type { Phase } from './phase.js';

/** The main phases in order: each one's rows may refer to the ones before (later-phases.ts has those that come after). */
export const CORE_PHASES: Phase[] = [...PEOPLE_PHASES, FORUM_PHASE, ...CONTENT_PHASES, ...CHAT_FLAG_PHASES];
