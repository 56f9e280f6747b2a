/**
 * The environment both tools run in: this one, minus what would steer either of them. `npm run
 * bench` exports npm_* variables (config, local prefix) that the timed npm would obey, and
 * HOOKYARD_* would do the same to hookyard. HOME is an empty folder, so neither reads the user's
 * ~/.npmrc or ~/.config/hookyard.
 */
export function childEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith("npm_") || lower.startsWith("hookyard_") || key === "XDG_CONFIG_HOME") continue;
    env[key] = value;
  }
  env.HOME = home;
  return env;
}
