// Example plugin: the current time in a time zone. Disabled in toolwire.config.json, so its tool is hidden (plugin-disabled).
export default {
  id: "clock",
  description: "Tells the time.",
  tools: (ctx) => [
    ctx.defineTool({
      name: "clock_now",
      description: "The current date and time in a time zone (IANA name, such as Europe/Paris).",
      inputSchema: {
        type: "object",
        properties: { timeZone: { type: "string", description: "IANA time zone; default from the plugin options" } },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      execute: ({ timeZone }) => {
        const zone = timeZone ?? ctx.options.timeZone ?? "UTC";
        return new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeStyle: "long", timeZone: zone }).format(
          new Date(),
        );
      },
    }),
  ],
};
