import type { ReactNode } from 'react';

/** One kind of suggestion: what triggers it, where items come from, what a pick inserts. */
export interface AutocompleteStrategy<T = unknown> {
  id: string;
  /** Tested on the text before the caret; it must end at the caret, its last group is the term. */
  match: RegExp;
  /** The items for a term (newest call wins; a rejection shows no list). */
  search(term: string): Promise<T[]>;
  /** A stable key of an item. */
  key(item: T): string;
  /** How an item shows in the list. */
  render(item: T): ReactNode;
  /** The text that replaces the trigger and the term. */
  replace(item: T): string;
}

/** A strategy of any item type, for lists mixing kinds (mentions and emoji). */
export type AnyAutocompleteStrategy = AutocompleteStrategy<any>;
