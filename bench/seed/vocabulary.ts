// Word lists for realistic German-ish roleplay data. Umlauts and ß are deliberate: search must
// be case-insensitive for them, so the data set has to contain them.
import type { Random } from "./random";

/** District codes of plates, some with umlauts (MÜ, TÜ, LÖ ...), plus the game's cities. */
export const plateCodes = [
  "LS", "SF", "LV", "B", "M", "HH", "K", "F", "S", "DO", "E", "D", "HB", "H", "L", "DD", "N", "A",
  "MÜ", "TÜ", "LÖ", "FÜ", "GÖ", "BÖ", "DÜW", "SÖM", "KÖT", "MÖL", "ÜB", "SÜW",
] as const;

export const plateLetters = "ABCDEFGHIJKLMNOPRSTUVWXYZ";

/** Makes (the vehicle's carType). */
export const makes = [
  "Vapid", "Bravado", "Übermacht", "Grotti", "Pegassi", "Declasse", "Albany", "Benefactor", "Karin",
  "Pfister", "Obey", "Dinka", "Annis", "Weeny", "Enus", "Ocelot", "Lampadati", "Maibatsu", "Imponte",
  "Schyster", "Zirconium", "Ubermacht",
] as const;

/** Models (the vehicle's car). */
export const models = [
  "Sentinel", "Zion", "Oracle", "Buffalo", "Stanier", "Schafter", "Sultan", "Blista", "Panto", "Felon",
  "Jackal", "Tailgater", "Fugitive", "Granger", "Baller", "Dubsta", "Kuruma", "Elegy", "Comet",
  "Infernus", "Streifenwagen", "Krankenwagen", "Großraumtaxi", "Kühlwagen", "Müllwagen",
  "Straßenkreuzer", "Pritsche", "Geländewagen",
] as const;

export const colors = [
  "Schwarz", "Weiß", "Grau", "Silber", "Rot", "Dunkelrot", "Blau", "Hellblau", "Grün", "Dunkelgrün",
  "Gelb", "Orange", "Braun", "Beige", "Türkis", "Violett", "Rosé", "Goldmetallic", "Mattschwarz",
] as const;

export const firstNames = [
  "Max", "Anna", "Jürgen", "Sören", "Özlem", "Jörg", "Günther", "Lea", "Lukas", "Mia", "Hans", "Grete",
  "Ömer", "Zoë", "Björn", "Käthe", "Jan", "Sophie", "Elias", "Emilia", "Ben", "Hannah", "Noah",
  "Lina", "Paul", "Marie", "Felix", "Lena", "Jonas", "Ünal", "Chloé", "Mustafa", "Agnieszka",
] as const;

export const lastNames = [
  "Müller", "Schmidt", "Schneider", "Fischer", "Weiß", "Groß", "Schäfer", "Köhler", "Krüger", "Strauß",
  "Becker", "Hoffmann", "Wagner", "Meißner", "Bäcker", "Öztürk", "Jäger", "Neumann", "Schwarz",
  "Zimmermann", "Braun", "Hartmann", "Lange", "Schmitz", "Krause", "Böhm", "Voß", "Fuß", "Nußbaum",
  "Yılmaz", "Kowalski", "Mustermann",
] as const;

export const comments = [
  "Anhängerkupplung", "Tiefergelegt", "Beschädigte Stoßstange", "Getönte Scheiben", "Halter verzogen",
  "Kennzeichen schlecht lesbar", "Sonderlackierung", "Zweitwagen", "Dachbox", "Fahrzeug stillgelegt",
  "Unfallschaden vorne links", "Tuning ohne Abnahme", "Wird oft vor dem Würfelpark gesehen",
] as const;

export const wantedReasons = [
  "Fahrerflucht", "Gestohlen gemeldet", "Bewaffneter Raubüberfall", "Verdacht auf Drogenschmuggel",
  "Flucht vor Verkehrskontrolle", "Offener Haftbefehl des Halters", "Beteiligung an Straßenrennen",
  "Überfall auf Tankstelle", "Entführung", "Geldwäsche über Autohaus",
] as const;

export const missionTitles = [
  "Verkehrsunfall", "Ladendiebstahl", "Ruhestörung", "Verfolgungsjagd", "Banküberfall", "Schlägerei",
  "Brand in Lagerhalle", "Vermisste Person", "Geiselnahme", "Drogenfund", "Großeinsatz Fußballspiel",
] as const;

export const networkPlaces = [
  "Los Santos", "San Fierro", "Las Venturas", "Blaine County", "Paleto Bay", "Sandy Shores", "Vinewood",
  "Mühlheim", "Großstadt", "Nordhöhe", "Süderbrück",
] as const;

export const networkKinds = ["PD", "Roleplay", "Sheriff", "Rettungsdienst", "Polizei", "Feuerwehr", "RP"] as const;

/** A first and a last name, for owners, officers and patients. */
export const personName = (random: Random) => `${random.pick(firstNames)} ${random.pick(lastNames)}`;

/** Words for a text field without a vocabulary of its own (bench/seed/vehicleValues.ts). */
export const anyWords = [...makes, ...models, ...colors, ...lastNames] as const;
