// toolwire/config: toolwire.config.json read and checked against the shipped schema, and the parts it builds.
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
  type ExecutorConfig,
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
