// toolwire/inspector: a local web page of the plan, the calls, the turns and the approvals of running sessions.

export { buildJournalRunView } from "./build-journal-run-view.js";
export { buildRecordingRunView } from "./build-recording-run-view.js";
export {
  createInspector,
  DEFAULT_INSPECTOR_MAX_CALLS,
  type Inspector,
  type InspectorOptions,
  type InspectorWatch,
  type InspectorWatchOptions,
} from "./create-inspector.js";
export { InspectorError, type InspectorErrorCode } from "./errors.js";
export type { StoredCall, StoredRun, StoredTurn } from "./stored-run.js";
