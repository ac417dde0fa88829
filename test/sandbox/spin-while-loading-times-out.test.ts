import { timesOutBesideBystander } from './times-out';

timesOutBesideBystander('a module that never finishes loading', 'hostile-spin-while-loading');
