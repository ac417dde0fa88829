import { writeFileSync } from 'node:fs';
import { GENERATED_VALIDATOR, descriptorValidatorCode } from './descriptor-validator';

// Part of `npm run build`: the descriptor schema's validator compiled into code once, not at every start.
if (require.main === module) writeFileSync(GENERATED_VALIDATOR, descriptorValidatorCode());
