// Preloaded with `node --import` by the benchmarks: prints the process's peak resident set size
// and the CPU time it used (user and system, all its threads) at exit.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(
    `\nBENCH_MAX_RSS_KB=${u.maxRSS}\nBENCH_CPU_MS=${Math.round((u.userCPUTime + u.systemCPUTime) / 1000)}\n`,
  );
});
