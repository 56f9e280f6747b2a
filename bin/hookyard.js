#!/usr/bin/env -S node --no-node-snapshot
import { runCli } from "../dist/cli/main.js";

await runCli();
