import type { ValueKind } from './value-kinds';

/**
 * The words customers' sheets use for what the models hold, in English, French, German and
 * Spanish (HR exports, site surveys, number plans). A concept names the fields it may fill, in
 * any model that has one of them; the meta columns of a bulk-load sheet (`Hierarchy Node`,
 * `Action`, `CFT Template`) are concepts too. `kinds` are the values a column of it holds: they
 * confirm a header, or place a column whose header says nothing.
 */
export interface Concept {
  name: string;
  /** Field names (top level) this concept fills, or `#` meta column names. */
  targets: string[];
  words: { en: string[]; fr: string[]; de: string[]; es: string[] };
  kinds?: ValueKind[];
}

export const CONCEPTS: Concept[] = [
  {
    name: 'site',
    targets: ['#Hierarchy Node'],
    words: {
      en: ['site', 'location', 'office', 'branch', 'hierarchy', 'hierarchy node', 'node', 'site name'],
      fr: ['site', 'emplacement', 'agence', 'bureau', 'localisation', 'etablissement'],
      de: ['standort', 'niederlassung', 'filiale', 'buero', 'ort'],
      es: ['sitio', 'sede', 'ubicacion', 'oficina', 'sucursal'],
    },
    kinds: ['hierarchy'],
  },
  {
    name: 'action',
    targets: ['#Action'],
    words: { en: ['action', 'operation'], fr: ['action', 'operation'], de: ['aktion', 'vorgang'], es: ['accion', 'operacion'] },
  },
  {
    name: 'template',
    targets: ['#CFT Template'],
    words: {
      en: ['template', 'cft', 'cft template', 'configuration template'],
      fr: ['modele', 'gabarit'],
      de: ['vorlage', 'konfigurationsvorlage'],
      es: ['plantilla'],
    },
  },
  {
    name: 'number',
    targets: ['pattern', 'internal_number'],
    words: {
      en: [
        'extension',
        'ext',
        'ddi',
        'did',
        'number',
        'phone number',
        'telephone number',
        'directory number',
        'dn',
        'line',
        'line number',
        'direct dial',
      ],
      fr: ['numero', 'numero de telephone', 'poste', 'ligne', 'sda', 'numero direct', 'numero de poste', 'telephone fixe'],
      de: ['rufnummer', 'durchwahl', 'nebenstelle', 'telefonnummer', 'nummer', 'anschluss'],
      es: ['numero', 'extension', 'numero de telefono', 'linea', 'anexo', 'numero directo'],
    },
    kinds: ['e164', 'local-number', 'extension'],
  },
  {
    name: 'device',
    targets: ['summary_device', 'device_name', 'device', 'name'],
    words: {
      en: ['phone mac', 'mac', 'mac address', 'device', 'device name', 'phone', 'handset', 'phone name'],
      fr: ['adresse mac', 'mac du poste', 'telephone', 'appareil', 'equipement'],
      de: ['mac adresse', 'geraet', 'telefon', 'endgeraet', 'telefon mac'],
      es: ['direccion mac', 'dispositivo', 'telefono', 'equipo'],
    },
    kinds: ['mac', 'device-name'],
  },
  {
    name: 'display name',
    targets: ['alertingName'],
    words: {
      en: ['display name', 'alerting name', 'caller name', 'caller id', 'full name', 'name'],
      fr: ['nom affiche', 'nom d affichage', 'nom complet'],
      de: ['anzeigename', 'vollstaendiger name', 'name'],
      es: ['nombre mostrado', 'nombre a mostrar', 'nombre completo'],
    },
  },
  {
    name: 'first name',
    targets: ['firstname'],
    words: { en: ['first name', 'given name', 'forename', 'first'], fr: ['prenom'], de: ['vorname'], es: ['nombre', 'nombre de pila'] },
  },
  {
    name: 'last name',
    targets: ['lastname'],
    words: {
      en: ['last name', 'surname', 'family name', 'last'],
      fr: ['nom', 'nom de famille'],
      de: ['nachname', 'familienname'],
      es: ['apellido', 'apellidos'],
    },
  },
  {
    name: 'user id',
    targets: ['userid', 'username'],
    words: {
      en: ['user id', 'userid', 'username', 'user name', 'login', 'account', 'samaccountname', 'employee id'],
      fr: ['identifiant', 'utilisateur', 'login', 'compte', 'matricule'],
      de: ['benutzername', 'benutzer', 'kennung', 'anmeldename', 'personalnummer'],
      es: ['usuario', 'id de usuario', 'nombre de usuario', 'cuenta'],
    },
  },
  {
    name: 'email',
    targets: ['mailid', 'email'],
    words: {
      en: ['email', 'e mail', 'mail', 'email address', 'mail address'],
      fr: ['courriel', 'adresse e mail', 'adresse mail', 'mel'],
      de: ['e mail adresse', 'mailadresse'],
      es: ['correo', 'correo electronico'],
    },
    kinds: ['email'],
  },
  {
    name: 'phone model',
    targets: ['product'],
    words: {
      en: ['phone model', 'model', 'product', 'phone type', 'handset model', 'handset', 'handset type', 'device model', 'device type'],
      fr: ['modele de telephone', 'modele de poste', 'type de poste'],
      de: ['modell', 'telefonmodell', 'geraetetyp', 'telefontyp'],
      es: ['modelo', 'modelo de telefono', 'tipo de telefono'],
    },
  },
  {
    name: 'partition',
    targets: ['routePartitionName'],
    words: { en: ['partition', 'route partition'], fr: ['partition'], de: ['partition'], es: ['particion'] },
  },
  {
    name: 'description',
    targets: ['description'],
    words: {
      en: ['description', 'notes', 'remarks'],
      fr: ['description', 'remarques'],
      de: ['beschreibung', 'bemerkung'],
      es: ['descripcion', 'notas'],
    },
  },
  {
    name: 'auto answer',
    targets: ['autoAnswer'],
    words: {
      en: ['auto answer', 'autoanswer', 'automatic answer', 'auto-answer'],
      fr: ['decroche automatique', 'reponse automatique', 'decroche auto'],
      de: ['automatische annahme', 'auto annahme', 'automatische rufannahme'],
      es: ['respuesta automatica', 'autorespuesta'],
    },
  },
  {
    name: 'precedence',
    targets: ['patternPrecedence'],
    words: {
      en: ['precedence', 'priority', 'mlpp', 'call priority'],
      fr: ['priorite', 'preseance', 'priorite d appel'],
      de: ['prioritaet', 'vorrang', 'anrufprioritaet'],
      es: ['prioridad', 'precedencia'],
    },
  },
  {
    name: 'reject anonymous calls',
    targets: ['rejectAnonymousCall'],
    words: {
      en: ['reject anonymous', 'reject anonymous calls', 'block anonymous', 'block anonymous calls', 'anonymous call rejection'],
      fr: ['refus appels anonymes', 'refuser les appels anonymes', 'rejet appels anonymes', 'bloquer les appels anonymes'],
      de: ['anonyme anrufe ablehnen', 'anonyme anrufe blockieren'],
      es: ['rechazar llamadas anonimas', 'bloquear llamadas anonimas'],
    },
    kinds: ['yes-no'],
  },
  {
    name: 'mobile',
    targets: ['phone'],
    words: {
      en: ['mobile', 'mobile phone', 'cell', 'cell phone'],
      fr: ['portable', 'mobile'],
      de: ['handy', 'mobilnummer', 'mobiltelefon'],
      es: ['movil', 'celular'],
    },
  },
];

export const LANGUAGES = { en: 'English', fr: 'French', de: 'German', es: 'Spanish' } as const;
