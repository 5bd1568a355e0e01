import type { DeviceStore } from '../../domain/device/deps.js';
import { findMasterPasswords } from './ata-master-passwords.js';
import { findAssetByRecord, setAssetNotes, setAssetTests, upsertAsset } from './assets.js';
import { findCertificateNumbers } from './certificate-numbers.js';
import { findChassisMap, saveChassisMap } from './chassis-maps.js';
import { findAccountPolicyJson, findTokenPolicyJson } from './erasure-policies.js';
import { findHealthGrading } from './health-gradings.js';
import { findAccountJobChoices, setAssetJobDetails, setDriveJobDetails } from './job-details.js';
import { findTokenByJti, spendCheckin, spendUnheardCheckin, touchLastSeen } from './tokens.js';
import { storeWipeResult } from './wipe-results.js';

/** The store's repositories behind the device domain (cloud and sandbox alike), over the async port. */
export const deviceStore: DeviceStore = {
  findTokenByJti,
  spendCheckin,
  spendUnheardCheckin,
  touchLastSeen,
  upsertAsset,
  findAssetByRecord,
  setAssetNotes,
  setAssetTests,
  findChassisMap,
  saveChassisMap,
  storeWipeResult,
  findCertificateNumbers,
  findTokenPolicyJson,
  findAccountPolicyJson,
  findMasterPasswords,
  findHealthGrading,
  findAccountJobChoices,
  setAssetJobDetails,
  setDriveJobDetails,
};
