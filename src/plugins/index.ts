// toolwire/plugins: tools and hooks from plugins, defined in process (definePlugin) or loaded by module path.
export {
  definePlugin,
  PLUGIN_ID_PATTERN,
  type Plugin,
  type PluginContext,
  type PluginDefinition,
  PluginError,
  type PluginErrorCode,
  type PluginTools,
} from "./define-plugin.js";
export {
  createPluginHost,
  type LoadedPlugin,
  type PluginEntry,
  type PluginHost,
  type PluginHostOptions,
  type PluginProblem,
} from "./plugin-host.js";
