// toolwire/inspector: a local web page of the plan, the calls, the turns and the approvals of running sessions.
export {
  createInspector,
  DEFAULT_INSPECTOR_MAX_CALLS,
  type Inspector,
  type InspectorOptions,
  type InspectorWatch,
  type InspectorWatchOptions,
} from "./create-inspector.js";
export { InspectorError, type InspectorErrorCode } from "./errors.js";
