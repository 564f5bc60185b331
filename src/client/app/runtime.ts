import { createContext, useContext } from 'react';
import type { Fragments } from './fragments';
import type { i18n as I18n } from 'i18next';
import type { ClientConfig, PageBase } from '../../shared/types';
import { createStore, type Store } from '../state/store';
import { removeAlert, upsertAlert, type AlertInput, type AlertItem } from '../state/alerts';
import type { Draft } from '../state/drafts';
import type { ComposerRequest, ComposerState } from '../components/composer/types';
import { INITIAL_INDICATOR, type IndicatorState } from '../realtime/indicator';

/** A modal dialog (session events); not closable when `closable` is false. */
export interface DialogState {
  title: string;
  message: string;
  closable: boolean;
  /** Label key of the one button. */
  button: string;
  onConfirm: () => void;
}

export interface PageState {
  page: PageBase;
  /** Full URL of the page shown. */
  url: string;
  /** True while the next page is loading (content is marked busy). */
  loading: boolean;
  /** Incremented per rendered page, so page components can reset local state. */
  seq: number;
}

export interface NavigateOptions {
  replace?: boolean;
  /** Reload even if it is the same page requested a moment ago. */
  force?: boolean;
}

export interface UiState {
  sidebarOpen: boolean;
  skin: string;
  /** Posts are loading: scroll-driven UI (bottom bar) pauses. */
  postsLoading: boolean;
}

/**
 * Everything the app shares: configuration, stores and actions. One per page render on the
 * server (so requests never share state), one per tab in the browser.
 */
export interface Runtime {
  config: ClientConfig;
  i18n: I18n;
  isServer: boolean;
  /** Server render only: the cache of repeated elements' HTML (see app/fragments.ts). */
  fragments?: Fragments;
  /** Server render only: closed dropdowns write their markup without react-bootstrap's hooks. */
  closedDropdowns?: boolean;
  page: Store<PageState>;
  alerts: Store<AlertItem[]>;
  progress: Store<number | null>;
  composer: Store<ComposerState | null>;
  drafts: Store<Draft[]>;
  ui: Store<UiState>;
  /** The live connection as the indicator shows it. */
  connection: Store<IndicatorState>;
  dialog: Store<DialogState | null>;
  /** Live events from the socket (new posts, edits…), for the pages that show them. */
  live: LiveBus;
  /**
   * Reconnects the socket if it is down (a navigation while disconnected does this); resolves
   * true once it is connected again, false at once when there is nothing to reconnect.
   */
  reconnect(): Promise<boolean>;
  /** Navigates in-page (or fully when the rules say so). Replaced by the navigator on the client. */
  navigate(url: string, opts?: NavigateOptions): void;
  /** Opens the composer (inline or the compose route). Replaced on the client. */
  openComposer(req: ComposerRequest): void;
  /** Flags unsaved changes on the current page, for the leave guard. */
  setUnsaved(key: string, unsaved: boolean): void;
  hasUnsaved(): boolean;
  alert(input: AlertInput): string;
  closeAlert(id: string): void;
}

/** Creates the runtime for one page render or one browser tab. */
export function createRuntime(page: PageBase, config: ClientConfig, i18n: I18n, isServer: boolean, url = page.url): Runtime {
  const unsaved = new Set<string>();
  const alerts = createStore<AlertItem[]>([]);
  const user = page.loggedInUser;
  return {
    config,
    i18n,
    isServer,
    page: createStore<PageState>({ page, url, loading: false, seq: 0 }),
    alerts,
    progress: createStore<number | null>(null),
    composer: createStore<ComposerState | null>(null),
    drafts: createStore<Draft[]>([]),
    ui: createStore<UiState>({
      sidebarOpen: (user?.settings?.openSidebars ?? config.openSidebars) === 'on',
      // The server gives the skin this viewer sees (their allowed choice, else the forum's default).
      skin: config.bootswatchSkin ?? '',
      postsLoading: false,
    }),
    connection: createStore<IndicatorState>(INITIAL_INDICATOR),
    dialog: createStore<DialogState | null>(null),
    live: createLiveBus(),
    reconnect: async () => false,
    navigate: () => undefined,
    openComposer: () => undefined,
    setUnsaved(key, flag) {
      if (flag) unsaved.add(key);
      else unsaved.delete(key);
    },
    hasUnsaved: () => unsaved.size > 0,
    alert(input) {
      const next = upsertAlert(alerts.get(), input);
      alerts.set(next);
      const id = input.alert_id ?? next[next.length - 1]!.alert_id;
      return id;
    },
    closeAlert(id) {
      alerts.set((list) => removeAlert(list, id));
    },
  };
}

/** A tiny event bus: the socket publishes live events, pages subscribe while mounted. */
export interface LiveBus {
  on(event: string, handler: (data: unknown) => void): () => void;
  emit(event: string, data: unknown): void;
}

/** Creates an empty live-event bus. */
export function createLiveBus(): LiveBus {
  const handlers = new Map<string, Set<(data: unknown) => void>>();
  return {
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      handlers.set(event, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    emit(event, data) {
      handlers.get(event)?.forEach((h) => {
        try {
          h(data);
        } catch (err) {
          console.error(`[live] ${event}`, err);
        }
      });
    },
  };
}

export const RuntimeContext = createContext<Runtime | null>(null);

/** The app runtime (throws outside the app root: a wiring bug). */
export function useRuntime(): Runtime {
  const rt = useContext(RuntimeContext);
  if (!rt) throw new Error('RuntimeContext missing');
  return rt;
}
