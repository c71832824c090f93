// The public API of toolwire/redis, loaded by ./index.ts once ioredis is known to be installed.

// Approvals: decided approval ids claimed once across every process and restart that shares the Redis.
export {
  createRedisApprovalStore,
  type RedisApprovalStore,
  type RedisApprovalStoreOptions,
} from "./create-redis-approval-store.js";

// Tasks: served tasks shared by toolwire serve replicas (serveMcp's tasks.store).
export {
  createRedisTaskStore,
  type RedisTaskControlMessage,
  type RedisTaskRecord,
  type RedisTaskStore,
  type RedisTaskStoreOptions,
} from "./create-redis-task-store.js";
