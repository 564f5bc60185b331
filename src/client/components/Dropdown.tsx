import { createContext, useContext, useId, type ComponentType, type ReactNode } from 'react';
import BsDropdown from 'react-bootstrap/Dropdown';
import { RuntimeContext } from '../app/runtime';

/**
 * react-bootstrap's Dropdown, with a lighter server render. A closed dropdown is a <div> and its
 * toggle <button>; react-bootstrap reaches that markup through some twenty hooks per dropdown,
 * and a member's page has eleven of them (the sidebar's and the bottom bar's menus): 8 % of a
 * member's topic page. In the server render (`rt.closedDropdowns`), a dropdown that is not
 * shown writes the same markup directly; the browser hydrates it with react-bootstrap's own.
 *
 * "The same markup" includes the toggle's id: react-bootstrap takes it from React's `useId` in
 * its toggle, which sits where this file's toggle calls `useId`, so both get the same value.
 * A toggle given an `id` (the shell's menus: their markup is cached whole, and a cached
 * fragment is rendered on its own, where `useId` would give other values) writes that one.
 * `tests/e2e/server-render.test.ts` compares whole pages rendered both ways.
 */
// The props as these wrappers see them; their callers see react-bootstrap's own types (below).
type Props = Record<string, unknown> & { className?: string; children?: ReactNode };
const Bs = BsDropdown as unknown as ComponentType<Props>;
const BsToggle = BsDropdown.Toggle as unknown as ComponentType<Props>;
const BsMenu = BsDropdown.Menu as unknown as ComponentType<Props>;

/**
 * The id of a shell menu's toggle (the sidebar's and the bottom bar's: `drop` tells them
 * apart), the same in the server's cached markup and in the browser.
 */
export function toggleId(menu: string, drop: string): string {
  return `${menu}-toggle-${drop}`;
}

/** react-bootstrap's class for each direction. */
const DIRECTION: Record<string, string> = { down: 'dropdown', 'down-centered': 'dropdown-center', up: 'dropup', 'up-centered': 'dropup-center dropup', end: 'dropend', start: 'dropstart' };

/** True inside a dropdown the server writes closed. */
const Closed = createContext(false);

/** The props a closed dropdown's markup is made of; any other makes it render react-bootstrap's. */
const CLOSED_PROPS = new Set(['drop', 'show', 'onToggle', 'className', 'autoClose', 'align', 'children']);
const TOGGLE_PROPS = new Set(['as', 'type', 'className', 'title', 'aria-label', 'id', 'children']);

function classes(...names: (string | false | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

function Dropdown(props: Props & { drop?: string; show?: boolean }) {
  if (!useContext(RuntimeContext)?.closedDropdowns || props.show || Object.keys(props).some((k) => !CLOSED_PROPS.has(k))) return <Bs {...props} />;
  return (
    <Closed.Provider value>
      <div className={classes(props.className, DIRECTION[props.drop ?? 'down'])}>{props.children}</div>
    </Closed.Provider>
  );
}

function Toggle(props: Props) {
  const closed = useContext(Closed);
  if (!closed || props.as !== 'button' || Object.keys(props).some((k) => !TOGGLE_PROPS.has(k))) return <BsToggle {...props} />;
  return <ClosedToggle {...props} />;
}

/** The toggle as react-bootstrap writes it closed: its classes, id, aria-expanded, then the given props. */
function ClosedToggle({ as: _as, className, children, ...rest }: Props) {
  // Called either way: the same hooks in the same order as react-bootstrap's toggle.
  const auto = useId();
  const id = typeof rest.id === 'string' ? rest.id : `react-aria-${auto}`;
  return (
    <button className={classes(className, 'dropdown-toggle')} id={id} aria-expanded={false} {...rest}>
      {children}
    </button>
  );
}

function Menu(props: Props) {
  // react-bootstrap renders a menu only once it has been shown.
  return useContext(Closed) ? null : <BsMenu {...props} />;
}

export default Object.assign(Dropdown, {
  Toggle,
  Menu,
  Item: BsDropdown.Item,
  ItemText: BsDropdown.ItemText,
  Divider: BsDropdown.Divider,
  Header: BsDropdown.Header,
}) as unknown as typeof BsDropdown;
