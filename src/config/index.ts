// toolwire/config: toolwire.config.json read and checked against the shipped schema, and the parts it builds.
export {
  type BuildFromConfigOptions,
  type BuiltConfig,
  buildFromConfig,
  type ConfigProblem,
  type McpServerPlan,
} from "./apply-config.js";
export type { ConfigIssue } from "./config-issue.js";
export { type FilePinStore, openFilePinStore, PINS_FILE_NAME } from "./file-pin-store.js";
export {
  CONFIG_FILE_NAME,
  ConfigError,
  type ConfigErrorCode,
  type LoadedConfig,
  loadConfig,
  parseConfig,
} from "./load-config.js";
export type { McpServersForm } from "./mcp-server-entries.js";
export type {
  AvailabilityConfig,
  CodeModeConfig,
  ExecutorConfig,
  FlowConfig,
  McpHttpServerConfig,
  McpServerConfig,
  McpStdioServerConfig,
  PluginConfig,
  ToolwireConfig,
} from "./toolwire-config.js";
export { readConfigSchema, validateConfig } from "./validate-config.js";
