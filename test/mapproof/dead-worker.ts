/** A proving worker that dies at start-up, every time (a broken install, a missing module): pool tests. */
process.exit(3);
