// ExecutorConfig: one entry of the config's `executors`, as the config file states it (docs/workers.md).

/** One entry of `executors`: where the matching tools' calls run. */
export interface ExecutorConfig {
  readonly id: string;
  readonly kind: "bullmq";
  /** `redis://…`, `rediss://…`, or `env:NAME`. */
  readonly connection: string;
  readonly queue?: string;
  /** Policy patterns of the tools that run there. */
  readonly tools: readonly string[];
  readonly lockDurationMs?: number;
  readonly connectTimeoutMs?: number;
}
