// A reusable textarea autocomplete (composer mentions and emoji; chat may use it too).
export { useTextareaAutocomplete } from './useTextareaAutocomplete';
export { applyEdit, caretOffset, type TextEdit } from './text-edit';
export type { AnyAutocompleteStrategy, AutocompleteStrategy } from './types';
