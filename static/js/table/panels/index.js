// Each game's own controls (its panel), by the game's name in ROOM.game: `cardMarks(deal, me)`
// marks cards of the hand (card -> {className, label}); `drawControls(...)` adds its lines to the
// actions box (table/actions.js); `news(...)`, the sentences a screen reader is told of what the
// moment asks of the person or gives them (each said once, by table/actions.js).
import * as blackMaria from "./black_maria.js";
import * as marjolet from "./marjolet.js";
import * as bigMariage from "./big_mariage.js";

export const PANELS = { black_maria: blackMaria, marjolet, big_mariage: bigMariage };
