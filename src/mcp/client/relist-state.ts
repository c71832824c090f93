// Re-listing a server's tools after list_changed as a state machine: one relist at a time, one more pass when a change
// came during it.

/** Whether the bridge is re-reading a server's tool list. */
export type RelistState =
  | { readonly kind: "idle" }
  /**
   * A relist runs; `done` resolves to whether its passes changed the tools. `again`: a change arrived
   * during the current pass, so one more pass follows it (however many changes arrived).
   */
  | { readonly kind: "relisting"; readonly done: Promise<boolean>; readonly again: boolean };

export type RelistEvent =
  /** A relist began; `done` settles when it ends. */
  | { readonly kind: "started"; readonly done: Promise<boolean> }
  /** The server said its tools changed (or a refresh was asked for) while a relist ran. */
  | { readonly kind: "changed" }
  /** A pass read the list (or failed to). */
  | { readonly kind: "pass-finished" }
  /** There is no connection to list on (it was lost or closed): the relist ends. */
  | { readonly kind: "stopped" };

/** The relist state after `event`. An event the state does not expect leaves it as it is. */
export function nextRelistState(state: RelistState, event: RelistEvent): RelistState {
  switch (event.kind) {
    case "started":
      return state.kind === "idle" ? { kind: "relisting", done: event.done, again: false } : state;
    case "changed":
      return state.kind === "relisting" ? { ...state, again: true } : state;
    case "pass-finished":
      if (state.kind !== "relisting") return state;
      return state.again ? { ...state, again: false } : { kind: "idle" };
    case "stopped":
      return { kind: "idle" };
  }
}
