// Preloaded with `node --import` by the benchmarks: prints the process's peak resident set size at exit.
process.on('exit', () => {
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
