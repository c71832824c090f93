// The demo shop's operations plugin: tools that need credentials the demo does not have, so the plan shows them hidden.
export default {
  id: "shop-ops",
  description: "Issue tracker, deploys and release notes for the demo shop.",
  tools: (ctx) => [
    ctx.defineTool({
      name: "open_issue",
      description: "Open an issue in the shop's GitHub repository.",
      inputSchema: {
        type: "object",
        properties: { title: { type: "string" }, body: { type: "string" } },
        required: ["title"],
      },
      availability: { kind: "auth", providerId: "github" },
      execute: ({ title }) => `Opened issue: ${title}`,
    }),
    ctx.defineTool({
      name: "deploy_preview",
      description: "Deploy the shop to a preview URL.",
      inputSchema: { type: "object", properties: {} },
      availability: { kind: "env", name: "SHOP_DEPLOY_TOKEN" },
      execute: () => "Deployed to a preview URL.",
    }),
    ctx.defineTool({
      name: "release_notes",
      description: "Draft release notes from the git log.",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      execute: () => "Nothing to release yet.",
    }),
  ],
};
