// Example plugin that fails while loading, on purpose: the host reports it and loads the others.
throw new Error("this example plugin fails on purpose while loading");
