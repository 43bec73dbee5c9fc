/**
 * What this process may touch, asked of Deno's permission system itself, so
 * the status resource shows whether the server really runs confined.
 * @module
 */

import { dirname } from "node:path";

/** The observable confinement of the process. */
export interface Confinement {
  /** Started through the launcher's confined re-exec. */
  confined: boolean;
  read_outside_workdir: boolean;
  write_outside_workdir: boolean;
  write_workdir: boolean;
  net_any_host: boolean;
  run_any_program: boolean;
}

/** Probes the permissions (never throws, never prompts). */
export function probeConfinement(workdir: string, confined: boolean): Confinement {
  const granted = (d: Deno.PermissionDescriptor) => {
    try {
      return Deno.permissions.querySync(d).state === "granted";
    } catch {
      return false; // an unsupported descriptor is not a grant
    }
  };
  const outside = dirname(workdir) === workdir ? "/__outside__" : dirname(workdir);
  return {
    confined,
    read_outside_workdir: granted({ name: "read", path: outside }),
    write_outside_workdir: granted({ name: "write", path: outside }),
    write_workdir: granted({ name: "write", path: workdir }),
    net_any_host: granted({ name: "net", host: "example.com" }),
    run_any_program: granted({ name: "run", command: "sh" }),
  };
}
