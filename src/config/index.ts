// The config file: toolwire.config.json, validated against the shipped schema, and what it builds.
export {
  type BuildFromConfigOptions,
  type BuiltConfig,
  buildFromConfig,
  type ConfigProblem,
  type McpServerPlan,
} from "./apply-config.js";
export {
  type AvailabilityConfig,
  CONFIG_FILE_NAME,
  ConfigError,
  type ConfigErrorCode,
  type ConfigIssue,
  type LoadedConfig,
  loadConfig,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  type PluginConfig,
  parseConfig,
  readConfigSchema,
  type ToolwireConfig,
  validateConfig,
} from "./load-config.js";
export { type JsonErrorLocation, locateJsonError } from "./locate-json-error.js";
