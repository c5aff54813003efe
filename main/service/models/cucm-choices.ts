/**
 * The values the call manager takes in its enumerated fields, so that a value it would refuse
 * (or take and then misbehave with) is refused here first, with the nearest valid one offered.
 *
 * Source: Cisco Unified Communications Manager AXL schema (AXLEnums.xsd, AXL API 12.5 to 15.0),
 * the simple types named beside each list, cross-checked with the Cisco Unified CM
 * Administration Guide ("Directory Number Settings", "Phone Settings") where an administrator
 * picks them from a drop-down. Values are copied as AXL spells them: case and spaces matter, as
 * they do to AXL.
 */

/** XPatternPrecedence: the MLPP precedence of a directory number. */
export const PATTERN_PRECEDENCES = ['Default', 'Executive Override', 'Flash Override', 'Flash', 'Immediate', 'Priority', 'Routine'];

/**
 * XPatternUsage, the values a directory number (a line) is stored with: the other usages of the
 * type (route patterns, hunt pilots, call park, translations...) are not lines.
 */
export const LINE_USAGES = ['Device', 'Device Intercom', 'Device template', 'Device Intercom Template'];

/** XAutoAnswer. */
export const AUTO_ANSWERS = ['Auto Answer Off', 'Auto Answer with Headset', 'Auto Answer with Speakerphone'];

/** XStatus, the type of a line's partyEntranceTone. */
export const PARTY_ENTRANCE_TONES = ['Default', 'On', 'Off'];

/** XReleaseCauseValue, the type of a line's releaseClause. */
export const RELEASE_CLAUSES = [
  'No Error',
  'Unallocated Number',
  'Call Rejected',
  'Number Changed',
  'Invalid Number Format',
  'Precedence Level Exceeded',
];

/** XCFACSSActivationPolicy, the type of a line's cfaCssPolicy. */
export const CFA_CSS_POLICIES = ['Use System Default', 'With Configured CSS', 'With Activating Device/Line CSS'];

/**
 * XDeviceProtocol, the protocols a phone registers with. The other values of the type belong
 * to gateways, trunks and media resources, not to phones.
 */
export const PHONE_PROTOCOLS = ['SIP', 'SCCP'];

/**
 * XProduct, the products a phone record is made for: desk and wireless phones, soft clients,
 * video endpoints, analog adapters and third-party SIP devices. Gateways, trunks, media
 * resources, route lists and expansion modules are products of the type too, never a phone's.
 */
export const PHONE_PRODUCTS = [
  'Analog Phone',
  'Carrier-integrated Mobile',
  'Cisco 3905',
  'Cisco 3911',
  'Cisco 3951',
  'Cisco 6901',
  'Cisco 6911',
  'Cisco 6921',
  'Cisco 6941',
  'Cisco 6945',
  'Cisco 6961',
  'Cisco 7811',
  'Cisco 7821',
  'Cisco 7832',
  'Cisco 7841',
  'Cisco 7861',
  'Cisco 7902',
  'Cisco 7905',
  'Cisco 7906',
  'Cisco 7910',
  'Cisco 7911',
  'Cisco 7912',
  'Cisco 7920',
  'Cisco 7921',
  'Cisco 7925',
  'Cisco 7926',
  'Cisco 7931',
  'Cisco 7935',
  'Cisco 7936',
  'Cisco 7937',
  'Cisco 7940',
  'Cisco 7941',
  'Cisco 7941G-GE',
  'Cisco 7942',
  'Cisco 7945',
  'Cisco 7960',
  'Cisco 7961',
  'Cisco 7961G-GE',
  'Cisco 7962',
  'Cisco 7965',
  'Cisco 7970',
  'Cisco 7971',
  'Cisco 7975',
  'Cisco 7985',
  'Cisco 8811',
  'Cisco 8811NS',
  'Cisco 8821',
  'Cisco 8831',
  'Cisco 8832',
  'Cisco 8832NR',
  'Cisco 8841',
  'Cisco 8841NS',
  'Cisco 8845',
  'Cisco 8851',
  'Cisco 8851NR',
  'Cisco 8851NS',
  'Cisco 8861',
  'Cisco 8865',
  'Cisco 8865NR',
  'Cisco 8875',
  'Cisco 8875NR',
  'Cisco 8941',
  'Cisco 8945',
  'Cisco 8961',
  'Cisco 9951',
  'Cisco 9971',
  'Cisco ATA 186',
  'Cisco ATA 187',
  'Cisco ATA 190',
  'Cisco ATA 191',
  'Cisco Cius',
  'Cisco Cius SP',
  'Cisco Dual Mode for Android',
  'Cisco Dual Mode for iPhone',
  'Cisco DX650',
  'Cisco DX70',
  'Cisco DX80',
  'Cisco E20',
  'Cisco IP Communicator',
  'Cisco Jabber for Tablet',
  'Cisco Room Bar Pro',
  'Cisco Room Kit EQ',
  'Cisco Room Kit EQX',
  'Cisco Spark Remote Device',
  'Cisco TelePresence DX70',
  'Cisco TelePresence EX60',
  'Cisco TelePresence EX90',
  'Cisco TelePresence MX200',
  'Cisco TelePresence MX200 G2',
  'Cisco TelePresence MX300',
  'Cisco TelePresence MX300 G2',
  'Cisco TelePresence MX700',
  'Cisco TelePresence MX800',
  'Cisco TelePresence MX800 Dual',
  'Cisco TelePresence SX10',
  'Cisco TelePresence SX20',
  'Cisco TelePresence SX80',
  'Cisco Unified Client Services Framework',
  'Cisco Unified Communications for RTX',
  'Cisco Unified Mobile Communicator',
  'Cisco Unified Personal Communicator',
  'Cisco VGC Phone',
  'Cisco Webex Board 55',
  'Cisco Webex Board 70',
  'Cisco Webex Board 85',
  'Cisco Webex Board Pro 55',
  'Cisco Webex Board Pro 75',
  'Cisco Webex Desk',
  'Cisco Webex Desk Hub',
  'Cisco Webex Desk LE',
  'Cisco Webex Desk Mini',
  'Cisco Webex Desk Pro',
  'Cisco Webex DX80',
  'Cisco Webex Room 55',
  'Cisco Webex Room 55 Dual',
  'Cisco Webex Room 70 Dual',
  'Cisco Webex Room 70 Dual G2',
  'Cisco Webex Room 70 Panorama',
  'Cisco Webex Room 70 Single',
  'Cisco Webex Room 70 Single G2',
  'Cisco Webex Room Bar',
  'Cisco Webex Room Kit',
  'Cisco Webex Room Kit Mini',
  'Cisco Webex Room Kit Plus',
  'Cisco Webex Room Kit Pro',
  'Cisco Webex Room Panorama',
  'Cisco Webex Room Phone',
  'Cisco Webex VDI Svc Framework',
  'CTI Port',
  'CTI Remote Device',
  'EMCC Base Phone',
  'Generic Desktop Video Endpoint',
  'Generic Multiple Screen Room System',
  'Generic Single Screen Room System',
  'IMS-integrated Mobile (Basic)',
  'IP-STE',
  'ISDN BRI Phone',
  'Nokia S60',
  'SCCP gateway virtual phone',
  'Third-party AS-SIP Endpoint',
  'Third-party SIP Device (Advanced)',
  'Third-party SIP Device (Basic)',
  'Universal Device Template',
];
