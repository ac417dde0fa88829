import { timesOutBesideBystander } from './times-out';

timesOutBesideBystander('a loop that starts after an await', 'hostile-loop-after-await');
