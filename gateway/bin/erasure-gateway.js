#!/usr/bin/env node
// Committed so npm can link the bin before the build; the code lives in dist/ after `tsc -b`.
import '../dist/main.js';
