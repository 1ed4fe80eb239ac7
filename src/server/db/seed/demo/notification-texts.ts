import type { NotificationType } from '../../../../shared/domain/notification';
import type { MachineKind } from './catalog';

// Notification texts of the demo plant: what technicians and operators write about their machines, with the
// measure (Maßnahme) that solved it and what it cost. Type 6 (planned maintenance) comes from the maintenance
// tasks instead.

export interface NotificationText {
  type: Exclude<NotificationType, 4 | 5 | 6>;
  kinds: readonly MachineKind[] | 'any';
  title: string;
  description: string;
  errorcode?: string;
  /** The documented measure: workflow title and its steps. */
  solution?: { title: string; steps: string[] };
  /** A spare part booked on the notification. */
  part?: { name: string; price: [number, number] };
  downtimeHours?: [number, number];
  /** An external service provider was called. */
  external?: { name: string; price: [number, number] };
  photo?: boolean;
}

const CNC: MachineKind[] = ['millingCenter', 'lathe'];
const SHEET: MachineKind[] = ['laserCutter', 'pressBrake', 'punchPress'];
const PRESSES: MachineKind[] = ['pressBrake', 'punchPress', 'servoPress'];
const TRUCKS: MachineKind[] = ['forklift', 'reachTruck', 'palletTruck'];
const AIR: MachineKind[] = ['compressor', 'dryer'];
const HYDRAULIC: MachineKind[] = ['hydraulicUnit', 'pressBrake', 'servoPress', 'injectionMolding'];

export const NOTIFICATION_TEXTS: NotificationText[] = [
  // 0 — unplanned downtime, technical defect
  { type: 0, kinds: CNC, title: 'Spindel blockiert – Maschine steht', description: 'Beim Werkzeugwechsel ist die Hauptspindel mit Alarm stehen geblieben. Spindel lässt sich von Hand nicht drehen, Geruch nach verbranntem Öl.', errorcode: 'ALM 25000', solution: { title: 'Spindellager getauscht', steps: ['Spindel ausgebaut und an den Hersteller-Service übergeben.', 'Austauschspindel eingebaut, Rundlauf gemessen (2 µm).', 'Einlaufprogramm 4 h gefahren, Temperaturen unauffällig.'] }, part: { name: 'Austauschspindel inkl. Lager', price: [8500, 14500] }, downtimeHours: [18, 46], external: { name: 'Hersteller-Service Spindeltausch', price: [1800, 3200] }, photo: true },
  { type: 0, kinds: CNC, title: 'Servoverstärker Achse X gestört', description: 'Maschine bleibt mit Achsfehler stehen, Not-Halt quittierbar, Fehler kommt nach wenigen Sekunden wieder.', errorcode: 'F-30005', solution: { title: 'Motormodul Achse X ersetzt', steps: ['Diagnose Antriebsverbund: Überstrom Motormodul X.', 'Motormodul getauscht, Parameter aus Sicherung geladen.', 'Achse referenziert, Kreisformtest i. O.'] }, part: { name: 'Motormodul SINAMICS S120 Double', price: [1900, 2600] }, downtimeHours: [6, 14] },
  { type: 0, kinds: SHEET, title: 'Laserquelle schaltet ab', description: 'Laser schaltet während des Schneidens ab, Meldung Kühlkreis. Kühlgerät zeigt Übertemperatur.', errorcode: 'LQ 4711', solution: { title: 'Kühlgerät entstört', steps: ['Kondensator des Kühlgeräts stark verschmutzt vorgefunden.', 'Lamellen gereinigt, Lüfter geprüft.', 'Kühlwasser-Leitwert gemessen, Filterpatrone getauscht.'] }, part: { name: 'Deionisierungspatrone', price: [180, 260] }, downtimeHours: [3, 8] },
  { type: 0, kinds: HYDRAULIC, title: 'Hydraulikpumpe fördert nicht', description: 'Kein Systemdruck nach dem Einschalten, Pumpe läuft hörbar, Manometer bleibt bei 0 bar.', errorcode: 'P-LOW', solution: { title: 'Kupplung Motor/Pumpe erneuert', steps: ['Kupplungsstern zerstört vorgefunden.', 'Kupplung komplett erneuert, Ausrichtung geprüft.', 'Druck auf 160 bar eingestellt, Dichtheit geprüft.'] }, part: { name: 'Kupplung ROTEX 38 komplett', price: [120, 240] }, downtimeHours: [4, 10] },
  { type: 0, kinds: AIR, title: 'Kompressor mit Störung abgeschaltet', description: 'Elektronikon meldet Übertemperatur Verdichterelement, Anlage ist aus. Druckluftnetz fällt ab, zweiter Kompressor läuft auf Volllast.', errorcode: 'T-ELEM 110 °C', solution: { title: 'Ölkühler gereinigt, Thermostatventil ersetzt', steps: ['Ölkühler von außen mit Druckluft ausgeblasen.', 'Thermostatventil klemmt in Teilstellung – ersetzt.', 'Probelauf 1 h, Temperatur stabil bei 78 °C.'] }, part: { name: 'Thermostatventil Servicekit', price: [160, 320] }, downtimeHours: [2, 6] },
  { type: 0, kinds: TRUCKS, title: 'Stapler fährt nicht mehr', description: 'Fahrantrieb ohne Funktion, Display zeigt Fehler Fahrsteuerung. Stapler steht in Gasse 4.', errorcode: 'E-2.131', solution: { title: 'Fahrschalter getauscht', steps: ['Fahrschalter im Fahrpedal ohne Signal.', 'Fahrpedal-Einheit ersetzt, Kalibrierung durchgeführt.'] }, part: { name: 'Fahrpedal-Einheit', price: [210, 390] }, downtimeHours: [2, 24] },
  { type: 0, kinds: ['injectionMolding'], title: 'Heizband Zylinder Zone 3 defekt', description: 'Temperatur Zone 3 erreicht Sollwert nicht, Maschine geht in Aufheizüberwachung.', errorcode: '1122', solution: { title: 'Heizband Zone 3 ersetzt', steps: ['Widerstand gemessen: Unterbrechung.', 'Heizband getauscht, Thermoelement geprüft.'] }, part: { name: 'Heizband 230 V 1000 W', price: [90, 160] }, downtimeHours: [2, 5] },
  { type: 0, kinds: ['robot'], title: 'Roboter mit Getriebefehler stehen geblieben', description: 'Achse 4 meldet Schleppfehler, Roboter stoppt bei Bewegung über Kopf. Zelle steht.', errorcode: 'KSS 26035', solution: { title: 'Motor Achse 4 getauscht', steps: ['Bremse Achse 4 öffnet nicht vollständig.', 'Motor mit Bremse getauscht, Mastering Achse 4.', 'Zyklus im T1 und Automatik getestet.'] }, part: { name: 'Motor A4 mit Bremse', price: [2400, 3900] }, downtimeHours: [8, 20], external: { name: 'KUKA Service vor Ort', price: [950, 1600] } },

  // 1 — anomaly
  { type: 1, kinds: CNC, title: 'Ungewöhnliches Geräusch am Spindelkopf', description: 'Bei Drehzahlen über 8000 1/min pfeifendes Geräusch. Bearbeitung läuft noch, Oberfläche bisher i. O.', solution: { title: 'Schwingungsmessung durchgeführt', steps: ['Schwingungsmessung an der Spindel: Werte im Grenzbereich.', 'Beobachtung, erneute Messung in 4 Wochen eingeplant.'] } },
  { type: 1, kinds: 'any', title: 'Ölfleck unter der Maschine', description: 'Heute früh Ölfleck ca. 30 cm Durchmesser unter der Maschine festgestellt. Bindemittel ausgestreut.', photo: true, solution: { title: 'Leckage an Verschraubung behoben', steps: ['Verschraubung an der Rücklaufleitung undicht.', 'Dichtring ersetzt, nachgezogen, Fläche gereinigt.'] }, part: { name: 'Dichtringsatz', price: [8, 35] } },
  { type: 1, kinds: HYDRAULIC, title: 'Hydrauliköl-Temperatur erhöht', description: 'Öltemperatur seit Tagen bei 58 °C statt sonst 45 °C. Kühler fühlt sich warm an.' },
  { type: 1, kinds: AIR, title: 'Kondensat am Druckluftverteiler', description: 'Am Verteiler Halle 2 tritt Wasser aus den Wartungseinheiten aus. Trockner prüfen.' },
  { type: 1, kinds: TRUCKS, title: 'Gabelzinken verbogen?', description: 'Linke Zinke scheint nach oben verbogen, Paletten kippen beim Aufnehmen. Bitte prüfen.', photo: true },
  { type: 1, kinds: ['laserCutter'], title: 'Schnittqualität schwankt', description: 'Bei 8 mm Edelstahl Bartbildung an der Unterseite, Düse und Schutzglas optisch i. O.' },
  { type: 1, kinds: ['cmm'], title: 'Messwerte driften im Tagesverlauf', description: 'Referenzteil misst nachmittags bis 4 µm größer. Klimaanlage Messraum prüfen.' },

  // 2 — note
  { type: 2, kinds: 'any', title: 'Neue Bedienanleitung am Pult hinterlegt', description: 'Aktuelle Kurz-Bedienanleitung (Rev. C) ausgedruckt und am Bedienpult hinterlegt. Alte Version entsorgt.' },
  { type: 2, kinds: CNC, title: 'KSS-Konzentration geprüft', description: 'Refraktometer: 6,5 % (Soll 6–8 %). pH 9,1. Keine Maßnahme nötig.' },
  { type: 2, kinds: 'any', title: 'Maschine für Kundenabnahme reserviert', description: 'Nächsten Donnerstag Abnahme Erstmuster durch Kunden. Maschine bitte ab Mittwoch Spätschicht freihalten.' },
  { type: 2, kinds: TRUCKS, title: 'Batterie getauscht gegen Wechselbatterie', description: 'Batterie 2 eingesetzt, Batterie 1 steht an Ladeplatz 3.' },

  // 3 — task
  { type: 3, kinds: CNC, title: 'Späneförderer reinigen', description: 'Späneförderer ist stark zugesetzt, bitte in der nächsten Wochenendschicht komplett reinigen.', solution: { title: 'Späneförderer gereinigt', steps: ['Förderer geöffnet, Späne und Schlamm entfernt.', 'Kettenspannung geprüft.'] } },
  { type: 3, kinds: 'any', title: 'Sichtscheibe tauschen lassen', description: 'Sichtscheibe der Schutztür ist zerkratzt, Bedienung kann den Arbeitsraum kaum einsehen. Ersatzscheibe bestellen und tauschen.', part: { name: 'Sichtscheibe Polycarbonat', price: [340, 780] } },
  { type: 3, kinds: 'any', title: 'Werkzeugliste aktualisieren', description: 'Werkzeugliste im Ordner an der Maschine entspricht nicht dem Magazin. Bitte abgleichen.' },
  { type: 3, kinds: ['injectionMolding'], title: 'Werkzeug 4711 einlagern', description: 'Nach Auftragsende Werkzeug reinigen, konservieren und ins Werkzeuglager bringen.' },
  { type: 3, kinds: 'any', title: 'Aufkleber Prüfplakette erneuern', description: 'Prüfplakette ist unleserlich. Neue Plakette aus der Arbeitssicherheit holen und anbringen.' },

  // 7 — reactive maintenance
  { type: 7, kinds: AIR, title: 'Luftfilter nach Differenzdruck-Warnung gewechselt', description: 'Elektronikon meldete Differenzdruck Luftfilter. Filter vorgezogen gewechselt.', part: { name: 'Luftfilterelement', price: [45, 95] }, solution: { title: 'Luftfilter gewechselt', steps: ['Filter gewechselt, Gehäuse gereinigt.', 'Wartungszähler zurückgesetzt.'] } },
  { type: 7, kinds: ['laserCutter'], title: 'Schutzglas Schneidkopf gewechselt', description: 'Schutzglas mit Einbrand nach Rückreflexion. Vorgezogen gewechselt.', part: { name: 'Schutzglas 37 x 7 mm', price: [30, 60] } },
  { type: 7, kinds: TRUCKS, title: 'Keilriemen Hydraulikpumpe nachgespannt', description: 'Quietschen beim Heben. Riemen nachgespannt.' },
  { type: 7, kinds: CNC, title: 'Abstreifer an der Y-Achse ersetzt', description: 'Abstreifer eingerissen, Späne gelangen unter die Abdeckung.', part: { name: 'Abstreiferleiste', price: [60, 140] } },

  // 8 — repair
  { type: 8, kinds: 'any', title: 'Türverriegelung reparieren', description: 'Schutztür verriegelt nur nach mehrfachem Schließen. Zuhaltung prüfen.', solution: { title: 'Sicherheitszuhaltung ersetzt', steps: ['Betätiger verbogen, Zuhaltung verschlissen.', 'Zuhaltung und Betätiger ersetzt, Funktion mit Prüfprotokoll nachgewiesen.'] }, part: { name: 'Sicherheitszuhaltung mit Betätiger', price: [180, 420] }, downtimeHours: [1, 3] },
  { type: 8, kinds: 'any', title: 'Energieführungskette instand setzen', description: 'Zwei Kettenglieder gebrochen, Leitungen scheuern an der Abdeckung.', solution: { title: 'Kettenglieder ersetzt', steps: ['Kette geöffnet, gebrochene Glieder ersetzt.', 'Leitungen auf Beschädigung geprüft, Trennstege neu gesetzt.'] }, part: { name: 'Kettenglieder igus E4', price: [90, 210] }, downtimeHours: [2, 5] },
  { type: 8, kinds: TRUCKS, title: 'Hubzylinder undicht', description: 'Öl läuft am Hubzylinder herunter, Last sinkt langsam ab.', solution: { title: 'Hubzylinder neu abgedichtet', steps: ['Zylinder ausgebaut, Dichtsatz erneuert.', 'Hydrauliköl ergänzt, Senkgeschwindigkeit geprüft.'] }, part: { name: 'Dichtsatz Hubzylinder', price: [70, 150] }, downtimeHours: [4, 8] },
  { type: 8, kinds: PRESSES, title: 'Lichtvorhang-Empfänger beschädigt', description: 'Empfänger durch Blechteil beschädigt, Presse lässt sich nicht starten.', solution: { title: 'Lichtvorhang getauscht und abgenommen', steps: ['Empfänger ersetzt, Ausrichtung eingestellt.', 'Nachlaufmessung durchgeführt, Sicherheitsabstand bestätigt.'] }, part: { name: 'Sicherheitslichtvorhang Empfänger', price: [780, 1350] }, downtimeHours: [3, 9] },

  // 9 — improvement
  { type: 9, kinds: 'any', title: 'Arbeitsraumbeleuchtung auf LED umrüsten', description: 'Leuchtstoffröhre im Arbeitsraum ist schwach. Vorschlag: Umrüstung auf LED-Maschinenleuchte, spart Energie und Wechsel.', part: { name: 'LED-Maschinenleuchte IP67', price: [160, 290] } },
  { type: 9, kinds: 'any', title: 'Ablage für Prüfmittel anbringen', description: 'Messschieber und Lehren liegen auf der Maschinenabdeckung. Vorschlag: Magnetablage am Bedienpult.' },
  { type: 9, kinds: CNC, title: 'Hochdruck-Kühlmittel nachrüsten', description: 'Für tiefe Bohrungen in Edelstahl wäre IKZ 40 bar sinnvoll. Angebot beim Hersteller angefragt.' },
  { type: 9, kinds: AIR, title: 'Wärmerückgewinnung Kompressor prüfen', description: 'Abwärme könnte die Halle beheizen. Energieberater hat Einsparung von ca. 18.000 kWh/Jahr geschätzt.' },

  // 10 — unplanned downtime, wear
  { type: 10, kinds: CNC, title: 'Kugelgewindetrieb Y-Achse verschlissen', description: 'Umkehrspiel Y-Achse 28 µm, Konturen außer Toleranz. Maschine für Präzisionsteile gesperrt.', solution: { title: 'Kugelgewindetrieb getauscht', steps: ['Kugelgewindetrieb und Festlager ausgebaut.', 'Neuen Trieb eingebaut, Vorspannung eingestellt.', 'Lasermessung, Kompensation neu geschrieben.'] }, part: { name: 'Kugelgewindetrieb Y komplett', price: [3800, 6200] }, downtimeHours: [20, 40], external: { name: 'Lasermessung Kalibrierdienst', price: [900, 1400] } },
  { type: 10, kinds: TRUCKS, title: 'Antriebsrad abgefahren', description: 'Lauffläche des Antriebsrads bis auf den Kern abgefahren, Stapler stillgelegt.', solution: { title: 'Antriebsrad ersetzt', steps: ['Rad abgezogen, neues Vulkollan-Rad aufgepresst.'] }, part: { name: 'Antriebsrad Vulkollan', price: [260, 480] }, downtimeHours: [6, 30] },
  { type: 10, kinds: ['pressBrake', 'servoPress'], title: 'Führungsleisten Stößel verschlissen', description: 'Stößelspiel zu groß, Biegewinkel schwanken um 1,5°.', solution: { title: 'Führungsleisten nachgestellt und ersetzt', steps: ['Leisten vermessen, zwei Leisten ersetzt.', 'Stößelparallelität eingestellt.'] }, part: { name: 'Führungsleisten Satz', price: [650, 1400] }, downtimeHours: [8, 16] },
  { type: 10, kinds: ['injectionMolding'], title: 'Rückstromsperre verschlissen', description: 'Massepolster nicht konstant, Teile unvollständig gefüllt.', solution: { title: 'Rückstromsperre ersetzt', steps: ['Schnecke gezogen, Rückstromsperre ersetzt.', 'Prozess neu freigegeben.'] }, part: { name: 'Rückstromsperre 40 mm', price: [480, 850] }, downtimeHours: [5, 10] },

  // 11 — unplanned downtime, operating error
  { type: 11, kinds: CNC, title: 'Kollision beim Einrichten – Werkzeug gebrochen', description: 'Beim Einfahren des neuen Programms falscher Nullpunkt aktiv, Fräser in Spannmittel gefahren.', solution: { title: 'Kollisionsschaden geprüft', steps: ['Spindel auf Rundlauf geprüft: i. O.', 'Spannmittel ersetzt, Nullpunkte kontrolliert.', 'Einweisung Bediener zur Nullpunktverwaltung.'] }, part: { name: 'Spannstock 125 mm', price: [420, 780] }, downtimeHours: [2, 6] },
  { type: 11, kinds: ['pressBrake'], title: 'Werkzeug falsch eingesetzt – Oberwerkzeug beschädigt', description: 'Oberwerkzeug mit zu geringer Tonnage-Freigabe genutzt, Werkzeugspitze ausgebrochen.', part: { name: 'Oberwerkzeug 88°', price: [390, 650] }, downtimeHours: [1, 3] },
  { type: 11, kinds: TRUCKS, title: 'Stapler gegen Regal gefahren', description: 'Beim Rückwärtsfahren Regalstütze touchiert. Schutzdach verbogen, Stapler vorsorglich stillgelegt.', photo: true, solution: { title: 'Schutzdach geprüft und gerichtet', steps: ['Schutzdach durch Hersteller geprüft.', 'Regalstütze durch Regalprüfer begutachtet, Anfahrschutz ergänzt.'] }, external: { name: 'Sachverständiger Regalprüfung', price: [240, 420] }, downtimeHours: [4, 12] },
  { type: 11, kinds: ['injectionMolding'], title: 'Falscher Datensatz geladen', description: 'Datensatz für Werkzeug 4712 statt 4711 geladen, Werkzeug überspritzt.', solution: { title: 'Werkzeug gereinigt, Datensatzverwaltung angepasst', steps: ['Werkzeug ausgebaut und gereinigt.', 'Datensatznamen mit Werkzeugnummer abgesichert.'] }, downtimeHours: [3, 8] },

  // 12 — malfunction without downtime
  { type: 12, kinds: CNC, title: 'Späneförderer läuft ruckartig', description: 'Förderer bleibt gelegentlich kurz stehen, läuft dann weiter. Produktion nicht beeinträchtigt.' },
  { type: 12, kinds: CNC, title: 'Kühlmittelpumpe zeitweise ohne Druck', description: 'Druckschalter meldet sporadisch zu wenig KSS-Druck, Meldung verschwindet nach Sekunden.', solution: { title: 'Saugfilter der KSS-Pumpe gereinigt', steps: ['Saugkorb stark zugesetzt, gereinigt.'] } },
  { type: 12, kinds: 'any', title: 'Lichtschranke löst sporadisch aus', description: 'Sicherheitslichtschranke am Beladeplatz löst ohne erkennbaren Grund aus, ca. 3 × pro Schicht.' },
  { type: 12, kinds: 'any', title: 'Display am Bedienpult flackert', description: 'Bildschirm flackert beim Türschließen. Bedienung weiterhin möglich.' },
  { type: 12, kinds: AIR, title: 'Kondensatableiter schaltet dauernd', description: 'Ableiter öffnet im Sekundentakt, hoher Druckluftverlust hörbar.' },
];

/** Chat lines about a notification; {name} is replaced by the next speaker's colleague. */
export const CHAT_LINES: string[] = [
  'Ich schaue mir das nach der Frühbesprechung an.',
  'Habe Fotos angehängt, bitte einmal drüberschauen.',
  'Ersatzteil ist bestellt, Lieferung laut Hersteller übermorgen.',
  'Können wir die Maschine bis dahin mit reduziertem Vorschub weiter fahren?',
  'Ja, aber bitte nur mit Sichtkontrolle jede Stunde.',
  'Der Hersteller-Service kommt Donnerstag um 8 Uhr.',
  'Bitte vorher den Arbeitsraum reinigen, sonst berechnen die Wartezeit.',
  'Erledigt, Maschine läuft wieder. Dokumentation folgt in der Maßnahme.',
  'Danke! Ich nehme es in die Schichtübergabe mit auf.',
  'Hat jemand die Zeichnung vom Hydraulikplan? Im Ordner fehlt Blatt 3.',
  'Liegt im Anlagenbuch unter Dokumentation → Wartung.',
  'Nachtschicht hat das gleiche Verhalten beobachtet.',
];
