import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

let ready = false;

/** zxcvbn score 0–4 of a password; user inputs (username, email) count against it. */
export function passwordStrength(password: string, userInputs: string[] = []): number {
  if (!ready) {
    zxcvbnOptions.setOptions({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
    });
    ready = true;
  }
  return zxcvbn(password.slice(0, 512), userInputs).score;
}
