/** Prints what probeKeychain says in this process's environment, for the keychain test. */
import { osKeychain, probeKeychain } from '../../../core/profiles/keychain.ts';

console.log(JSON.stringify(await probeKeychain(await osKeychain('burrow-test-probe'))));
