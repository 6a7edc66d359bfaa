// WebAssembly traps. A trap (a RuntimeError: an out-of-bounds access, unreachable code)
// stops the core midway: no destructor runs, and the core's state (its heap, its stack
// pointer, the handle the call was using) may be half-written. An instance that trapped
// is therefore unusable: the call that trapped rejects with an Error naming it, every
// later call on the instance or on any object it made throws an Error saying so, and a
// call that was under way (a dedup between slices) rejects rather than return what it
// computed. dispose() on such objects does nothing (their memory goes with the
// instance), and finalizers never throw, so no trap escapes as an uncaught exception.

const coreOf = new WeakMap(); // public object (SimHash, indexes, IdfWeights) -> its core
const trapOf = new WeakMap(); // core -> { call, message } of the trap that broke it
let traps = 0; // traps so far, in any instance: while there are none, a guarded call looks nothing up

/** Records the core that a public object's methods call into (guardMethods needs it). */
export function bindCore(object, core) {
  coreOf.set(object, core);
}

function unusableError({ call, message }) {
  return new Error(`simhash-wasm: this instance is unusable since ${call} hit a WebAssembly trap (${message}); init() gives a new one`);
}

/** Throws if the core has trapped. */
export function assertUsable(core) {
  const trap = trapOf.get(core);
  if (trap) throw unusableError(trap);
}

/** Whether the instance of a public object (or a core) has not trapped. */
export function isUsable(objectOrCore) {
  return !trapOf.has(coreOf.get(objectOrCore) ?? objectOrCore);
}

/** The error a call rejects with: a trap marks the core unusable and is named; other errors pass unchanged. */
function afterError(core, call, error) {
  if (!(error instanceof WebAssembly.RuntimeError)) return error;
  if (!trapOf.has(core)) {
    trapOf.set(core, { call, message: error.message });
    traps++;
  }
  return new Error(`simhash-wasm: ${call} hit a WebAssembly trap (${error.message}); this instance is unusable now, init() gives a new one`,
    { cause: error });
}

function guard(call, method) {
  if (method.constructor.name === 'AsyncFunction') {
    return async function guardedAsync(a, b, c) {
      const core = coreOf.get(this);
      assertUsable(core);
      let value;
      try {
        value = await method.call(this, a, b, c);
      } catch (error) {
        throw afterError(core, call, error);
      }
      assertUsable(core); // another call trapped while this one ran: its answer cannot be trusted
      return value;
    };
  }
  // Three parameters cover every public method's (none reads arguments.length), and a call
  // with fixed arguments costs less than rest and apply on the single-call paths.
  return function guarded(a, b, c) {
    if (traps > 0) assertUsable(coreOf.get(this));
    try {
      return method.call(this, a, b, c);
    } catch (error) {
      throw afterError(coreOf.get(this), call, error);
    }
  };
}

/**
 * Guards every method and getter of a class whose instances were given their core with
 * bindCore: `${label}.${name}` names the call in errors. dispose() only skips the core
 * once the instance is unusable, and serves `using` where the runtime has explicit
 * resource management.
 */
export function guardMethods(Class, label) {
  const prototype = Class.prototype;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    if (name === 'constructor') continue;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
    if (name === 'dispose') {
      const dispose = descriptor.value;
      descriptor.value = function disposeUnlessBroken() {
        if (isUsable(this)) dispose.call(this);
      };
    } else if (descriptor.get) {
      descriptor.get = guard(`${label}.${name}`, descriptor.get);
    } else if (typeof descriptor.value === 'function') {
      descriptor.value = guard(`${label}.${name}()`, descriptor.value);
    }
    Object.defineProperty(prototype, name, descriptor);
  }
  if (Symbol.dispose && prototype.dispose) prototype[Symbol.dispose] = prototype.dispose;
}

/** A FinalizationRegistry that frees [core, handle] with core[deleteName] while the core is usable, and never throws. */
export function handleRegistry(deleteName) {
  return new FinalizationRegistry(([core, handle]) => {
    if (!trapOf.has(core)) {
      try {
        core[deleteName](handle);
      } catch (error) {
        afterError(core, `a finalizer (${deleteName})`, error);
      }
    }
  });
}
