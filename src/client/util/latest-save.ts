/**
 * Saves a value that the member changes in quick steps (a slider moved with the arrow keys):
 * one request at a time, and only the newest value waiting. Requests sent together could
 * arrive in another order and leave an older value stored; here the last value the member
 * chose is the last one sent.
 */
export function latestSaver<T>(save: (value: T) => Promise<unknown>, onError: (err: unknown) => void): (value: T) => Promise<void> {
  let sending: Promise<void> | null = null;
  let next: { value: T } | null = null;
  const drain = async () => {
    while (next) {
      const { value } = next;
      next = null;
      try {
        await save(value);
      } catch (err) {
        onError(err);
      }
    }
    sending = null;
  };
  return (value: T) => {
    next = { value };
    sending ??= drain();
    return sending;
  };
}
