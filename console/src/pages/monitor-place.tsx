// A monitor's name and its station's place (M3 to create, M2 to change): the address as text, and the
// position, picked on the map or typed. The position is the station marked on every alarm map of its
// screens (docs/display.md "Configuration": `address`, `latitude`, `longitude`).
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { t, words } from '../i18n.js';
import { MapView } from '../map.js';
import { Problem, fieldProblems } from '../ui.js';

const w = words(
  {
    latitude: 'Breitengrad',
    longitude: 'Längengrad',
    position: 'Position der Wache',
    positionHint:
      'Tippen Sie auf der Karte auf die Wache, oder tragen Sie die Koordinaten ein. Die Bildschirme zeigen sie auf jeder Einsatzkarte.',
    mapLabel: (name: string) => `Karte: Position von ${name || 'der Wache'} wählen`,
    station: 'Wache',
    clear: 'Position entfernen',
    save: 'Speichern',
    cancel: 'Abbrechen',
    badLatitude: 'Eine Zahl von −90 bis 90, z. B. 50.7766',
    badLongitude: 'Eine Zahl von −180 bis 180, z. B. 6.0834',
    bothOrNone: 'Bitte beide Koordinaten angeben, oder keine.',
  },
  {
    latitude: 'Latitude',
    longitude: 'Longitude',
    position: "The station's position",
    positionHint: 'Tap the station on the map, or type its coordinates. The screens mark it on every alarm map.',
    mapLabel: (name: string) => `Map: pick the position of ${name || 'the station'}`,
    station: 'Station',
    clear: 'Remove the position',
    save: 'Save',
    cancel: 'Cancel',
    badLatitude: 'A number from −90 to 90, e.g. 50.7766',
    badLongitude: 'A number from −180 to 180, e.g. 6.0834',
    bothOrNone: 'Please give both coordinates, or neither.',
  },
);

// Where the map starts without a position: Germany as a whole.
const COUNTRY = { lat: 51.16, lon: 10.45 };

export interface MonitorToPlace {
  id: number;
  name: string;
  configuration: { address?: string; latitude?: unknown; longitude?: unknown } & Record<string, unknown>;
}

/** A coordinate as typed (a comma as decimal mark too), or null when it is not one within ±limit. */
function coordinate(text: string, limit: number): number | null {
  const value = Number(text.trim().replace(',', '.'));
  return text.trim() !== '' && Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

const shown = (value: unknown) => (typeof value === 'number' ? String(value) : '');

/**
 * The form for a new monitor (`monitor` absent) or for changing one; `onDone` after it was saved (or
 * the change was cancelled).
 */
export function MonitorForm({
  organizationId,
  monitor,
  onDone,
}: {
  organizationId: number;
  monitor?: MonitorToPlace;
  onDone: () => void;
}) {
  const prefix = monitor ? `monitor-${monitor.id}` : 'monitor';
  const [name, setName] = useState(monitor?.name ?? '');
  const [address, setAddress] = useState(monitor?.configuration.address ?? '');
  const [lat, setLat] = useState(shown(monitor?.configuration.latitude));
  const [lon, setLon] = useState(shown(monitor?.configuration.longitude));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const latitude = coordinate(lat, 90);
  const longitude = coordinate(lon, 180);
  const placed = latitude !== null && longitude !== null;
  // Where the map looks: the station, else the country; typed coordinates move it there, a tap on the
  // map does not (the view stays where the person is looking).
  const [focus, setFocus] = useState(() =>
    placed ? { lat: latitude, lon: longitude, zoom: 16 } : { ...COUNTRY, zoom: 6 },
  );
  const typed = (set: (v: string) => void, other: string, isLat: boolean) => (value: string) => {
    set(value);
    const [la, lo] = isLat
      ? [coordinate(value, 90), coordinate(other, 180)]
      : [coordinate(other, 90), coordinate(value, 180)];
    if (la !== null && lo !== null) setFocus({ lat: la, lon: lo, zoom: 16 });
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (lat.trim() && latitude === null) found.latitude = w.badLatitude;
    if (lon.trim() && longitude === null) found.longitude = w.badLongitude;
    if (!found.latitude && !found.longitude && (lat.trim() === '') !== (lon.trim() === '')) found.form = w.bothOrNone;
    setProblems(found);
    if (Object.keys(found).length) return;
    // The configuration is replaced as a whole (M2): every other key of it stays as it was.
    const rest: Record<string, unknown> = { ...monitor?.configuration };
    for (const key of ['address', 'latitude', 'longitude']) delete rest[key];
    const configuration = {
      ...rest,
      ...(address.trim() ? { address: address.trim() } : {}),
      ...(placed ? { latitude, longitude } : {}),
    };
    setBusy(true);
    try {
      if (monitor) await api('PUT', '/monitor', { id: monitor.id, name: name.trim(), configuration });
      else await api('POST', '/monitor', { name: name.trim(), organizationID: organizationId, configuration });
      if (!monitor) {
        setName('');
        setAddress('');
        setLat('');
        setLon('');
      }
      onDone();
    } catch (err) {
      const byField = fieldProblems(err, ['name', 'configuration']);
      if (byField.configuration) byField.form ??= byField.configuration;
      setProblems(byField);
    } finally {
      setBusy(false);
    }
  };

  const field = (id: string, label: string, value: string, set: (v: string) => void, problem?: string) => (
    <div class="stack">
      <label for={`${prefix}-${id}`}>{label}</label>
      <input
        id={`${prefix}-${id}`}
        value={value}
        inputMode="decimal"
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${prefix}-${id}-problem` : undefined}
        onInput={(e) => set((e.target as HTMLInputElement).value)}
      />
      {problem && (
        <span id={`${prefix}-${id}-problem`} class="field-problem">
          {problem}
        </span>
      )}
    </div>
  );

  return (
    <form class="stack" onSubmit={submit} noValidate>
      <label for={`${prefix}-name`}>{t.monitorName}</label>
      <input
        id={`${prefix}-name`}
        value={name}
        maxLength={200}
        placeholder={t.monitorNameHint}
        aria-invalid={problems.name ? true : undefined}
        aria-describedby={problems.name ? `${prefix}-name-problem` : undefined}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      {problems.name && (
        <span id={`${prefix}-name-problem`} class="field-problem">
          {problems.name}
        </span>
      )}
      <label for={`${prefix}-address`}>{t.monitorAddress}</label>
      <input
        id={`${prefix}-address`}
        value={address}
        maxLength={500}
        autoComplete="street-address"
        onInput={(e) => setAddress((e.target as HTMLInputElement).value)}
      />
      <fieldset class="stack place">
        <legend>{w.position}</legend>
        <p class="hint">{w.positionHint}</p>
        <MapView
          label={w.mapLabel(name.trim())}
          center={focus}
          zoom={focus.zoom}
          markers={placed ? [{ lat: latitude, lon: longitude, label: name.trim() || w.station, kind: 'pick' }] : []}
          onPick={(pickedLat, pickedLon) => {
            setLat(pickedLat.toFixed(6));
            setLon(pickedLon.toFixed(6));
          }}
        />
        <div class="row wrap coordinates">
          {field('latitude', w.latitude, lat, typed(setLat, lon, true), problems.latitude)}
          {field('longitude', w.longitude, lon, typed(setLon, lat, false), problems.longitude)}
        </div>
        {(lat || lon) && (
          <button
            class="button small secondary"
            type="button"
            onClick={() => {
              setLat('');
              setLon('');
            }}
          >
            {w.clear}
          </button>
        )}
      </fieldset>
      <Problem text={problems.form ?? null} />
      <div class="row wrap">
        <button class="button" type="submit" disabled={busy} aria-busy={busy}>
          {monitor ? w.save : t.createMonitor}
        </button>
        {monitor && (
          <button class="button secondary" type="button" onClick={onDone}>
            {w.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
