import type { Runtime } from '../../app/runtime';

type Emit = (event: string, ...args: unknown[]) => Promise<unknown>;
const callers = new WeakMap<object, Emit>();

/** Set by the socket client when it connects a member: how the composer makes socket calls. */
export function setSocketCaller(rt: object, emit: Emit): void {
  callers.set(rt, emit);
}

/** A NodeBB-style socket call (spec §7); rejects when there is no live connection. */
export async function socketCall<T>(rt: Runtime, name: string, ...payload: unknown[]): Promise<T> {
  const emit = callers.get(rt);
  if (!emit) throw new Error('no live connection');
  return (await emit(name, ...payload)) as T;
}
